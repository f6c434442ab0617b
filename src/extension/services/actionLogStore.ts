import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileChange, SerializedSession, Snapshot } from '../core/actionLog';

/** Sessions kept in storage; older ones are dropped when a new one is saved. */
const MAX_SESSIONS = 20;
/** Texts up to this size live in the session's JSON; larger ones are files of their own. */
const INLINE_BYTES = 16 * 1024;

type StoredText = { kind: 'bytes'; base64: string } | { kind: 'bytes'; blob: string };
type StoredSnapshot = { kind: 'absent' } | { kind: 'unknown'; reason: string } | StoredText;
type StoredChange = Omit<FileChange, 'before' | 'after'> & { before: StoredSnapshot; after: StoredSnapshot | null };
interface StoredSession {
  version: 1;
  currentTurn: number;
  changes: StoredChange[];
}

/**
 * The action log of each session in the workspace's storage, so Review and checkpoints survive a
 * reload: one JSON file per session, large texts as content-addressed files beside it. Bounded:
 * the most recent sessions only.
 */
export class ActionLogStore {
  private readonly blobs: string;
  /**
   * The stored form of each text already saved, by identity (a snapshot's bytes are never changed
   * in place): a log saved again and again during a turn encodes and hashes each text once.
   */
  private readonly storedTexts = new WeakMap<Uint8Array, StoredText>();

  constructor(private readonly dir: string) {
    this.blobs = path.join(dir, 'blobs');
  }

  save(sessionId: string, data: SerializedSession): void {
    fs.mkdirSync(this.blobs, { recursive: true });
    const stored: StoredSession = {
      version: 1,
      currentTurn: data.currentTurn,
      changes: data.changes.map((c) => ({ ...c, before: this.storeSnapshot(c.before), after: c.after ? this.storeSnapshot(c.after) : null })),
    };
    const file = this.fileOf(sessionId);
    // Written whole then renamed: a crash mid-write leaves the previous log, not half of one.
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(stored));
    fs.renameSync(`${file}.tmp`, file);
    this.prune(path.basename(file));
  }

  load(sessionId: string): SerializedSession | undefined {
    let stored: StoredSession;
    try {
      stored = JSON.parse(fs.readFileSync(this.fileOf(sessionId), 'utf8')) as StoredSession;
    } catch {
      return undefined;
    }
    if (stored.version !== 1 || !Array.isArray(stored.changes)) return undefined;
    return {
      currentTurn: stored.currentTurn,
      changes: stored.changes.map((c) => ({ ...c, before: this.loadSnapshot(c.before), after: c.after ? this.loadSnapshot(c.after) : undefined })),
    };
  }

  private fileOf(sessionId: string): string {
    return path.join(this.dir, `${encodeURIComponent(sessionId)}.json`);
  }

  private storeSnapshot(snapshot: Snapshot): StoredSnapshot {
    if (snapshot.kind !== 'bytes') return snapshot;
    const known = this.storedTexts.get(snapshot.bytes);
    // A blob may have been pruned since (its session dropped, then the text used again): checked.
    if (known && ('base64' in known || fs.existsSync(path.join(this.blobs, known.blob)))) return known;
    const stored = this.encodeSnapshot(snapshot.bytes);
    this.storedTexts.set(snapshot.bytes, stored);
    return stored;
  }

  private encodeSnapshot(bytes: Uint8Array): StoredText {
    if (bytes.length <= INLINE_BYTES) return { kind: 'bytes', base64: Buffer.from(bytes).toString('base64') };
    const hash = crypto.createHash('sha256').update(bytes).digest('hex');
    const file = path.join(this.blobs, hash);
    if (!fs.existsSync(file)) fs.writeFileSync(file, bytes);
    return { kind: 'bytes', blob: hash };
  }

  private loadSnapshot(stored: StoredSnapshot): Snapshot {
    if (stored.kind !== 'bytes') return stored;
    if ('base64' in stored) return { kind: 'bytes', bytes: new Uint8Array(Buffer.from(stored.base64, 'base64')) };
    try {
      return { kind: 'bytes', bytes: new Uint8Array(fs.readFileSync(path.join(this.blobs, stored.blob))) };
    } catch {
      return { kind: 'unknown', reason: 'its saved text is missing from the workspace storage' };
    }
  }

  /** Keeps the most recent sessions (the one just saved first) and the large texts they still use. */
  private prune(justSaved: string): void {
    const sessions = fs
      .readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ f, mtime: f === justSaved ? Infinity : fs.statSync(path.join(this.dir, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const old of sessions.slice(MAX_SESSIONS)) fs.rmSync(path.join(this.dir, old.f), { force: true });
    if (sessions.length <= MAX_SESSIONS) return;
    const used = new Set<string>();
    for (const { f } of sessions.slice(0, MAX_SESSIONS)) {
      for (const m of fs.readFileSync(path.join(this.dir, f), 'utf8').matchAll(/"blob":"([0-9a-f]{64})"/g)) used.add(m[1]);
    }
    for (const blob of fs.readdirSync(this.blobs)) if (!used.has(blob)) fs.rmSync(path.join(this.blobs, blob), { force: true });
  }
}
