import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileChange, LargeSnapshot, SerializedSession, Snapshot } from '../core/actionLog';

/** A large copy no log names is an orphan once it is this old (see `sweepLarge`). */
const ORPHAN_COPY_AGE_MS = 10 * 60_000;

/** Sessions kept in storage; older ones are dropped when a new one is saved. */
const MAX_SESSIONS = 20;
/** Texts up to this size live in the session's JSON; larger ones are files of their own. */
const INLINE_BYTES = 16 * 1024;

type StoredText = { kind: 'bytes'; base64: string } | { kind: 'bytes'; blob: string };
type StoredSnapshot = { kind: 'absent' } | { kind: 'unknown'; reason: string } | LargeSnapshot | StoredText;
type StoredChange = Omit<FileChange, 'before' | 'after'> & { before: StoredSnapshot; after: StoredSnapshot | null };
interface StoredSession {
  version: 1;
  currentTurn: number;
  changes: StoredChange[];
}

/** A large file's copy: named per copy (never shared), so dropping it never touches another change's. */
const LARGE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The action log of each session in the workspace's storage, so Review and checkpoints survive a
 * reload: one JSON file per session, large texts as content-addressed files beside it. Bounded:
 * the most recent sessions only. Files larger than 2 MB are never in memory nor in the JSON: their
 * text before is a byte copy in `large/` (see `copyLarge`), dropped when its change is kept or
 * undone, when its session leaves the storage, and at startup when no stored session names it.
 */
export class ActionLogStore {
  private readonly blobs: string;
  /** Copies of large files (one per change or restore point). */
  readonly largeDir: string;
  /** The large copies the running window still uses that may not be saved in a session yet. */
  liveLarge: () => ReadonlySet<string> = () => new Set();
  /**
   * The stored form of each text already saved, by identity (a snapshot's bytes are never changed
   * in place): a log saved again and again during a turn encodes and hashes each text once.
   */
  private readonly storedTexts = new WeakMap<Uint8Array, StoredText>();

  constructor(private readonly dir: string) {
    this.blobs = path.join(dir, 'blobs');
    this.largeDir = path.join(dir, 'large');
  }

  /**
   * Starts a byte copy of a large file into the storage, now: the kernel copies (`copy_file_range`,
   * or a reflink where the file system has them) on libuv's thread pool, so the extension host does
   * not wait for it, and it starts at once, as a synchronous copy would. Resolves with whether the
   * copy is the file as it was when the copy started (it is not when the file changed meanwhile:
   * the agent wrote while it was being copied).
   */
  copyLarge(source: string): { blob: string; done: Promise<{ ok: true; sha256: string } | { ok: false; reason: string }> } {
    fs.mkdirSync(this.largeDir, { recursive: true });
    const blob = crypto.randomUUID();
    const target = this.largePath(blob);
    const started = fs.statSync(source);
    const done = new Promise<{ ok: true; sha256: string } | { ok: false; reason: string }>((resolve) => {
      fs.copyFile(source, target, fs.constants.COPYFILE_FICLONE, (error) => {
        if (error) return resolve({ ok: false, reason: `it could not be copied (${error.message})` });
        void (async () => {
          try {
            const now = await fs.promises.stat(source);
            if (now.mtimeMs !== started.mtimeMs || now.size !== started.size) return resolve({ ok: false, reason: 'it changed while it was being copied' });
            const copied = await fingerprintFile(target);
            if (copied.kind !== 'file' || copied.size !== started.size) return resolve({ ok: false, reason: 'its copy is not whole' });
            resolve({ ok: true, sha256: copied.sha256 });
          } catch (error) {
            resolve({ ok: false, reason: `it could not be copied (${(error as Error).message})` });
          }
        })();
      });
    });
    return { blob, done };
  }

  largePath(blob: string): string {
    if (!LARGE_NAME.test(blob)) throw new Error(`Not a copy of the action log: ${blob}`);
    return path.join(this.largeDir, blob);
  }

  /** Drops a large file's copy (kept, undone, or its change dropped). */
  dropLarge(blob: string): void {
    if (LARGE_NAME.test(blob)) fs.rmSync(path.join(this.largeDir, blob), { force: true });
  }

  /** Drops the large copies that neither a stored session nor the running window uses (e.g. at startup: left by a crash). */
  sweepLarge(): void {
    let names: string[];
    try {
      names = fs.readdirSync(this.largeDir);
    } catch {
      return;
    }
    const used = new Set(this.liveLarge());
    for (const f of fs.readdirSync(this.dir).filter((f) => f.endsWith('.json'))) {
      for (const m of fs.readFileSync(path.join(this.dir, f), 'utf8').matchAll(/"kind":"large"[^}]*?"blob":"([0-9a-f-]{36})"/g)) used.add(m[1]);
    }
    // Another window on the same workspace shares this folder and may have just copied a file it
    // has not saved a log naming yet: only copies older than that window could take are orphans.
    const cutoff = Date.now() - ORPHAN_COPY_AGE_MS;
    for (const name of names) {
      if (used.has(name)) continue;
      const file = path.join(this.largeDir, name);
      try {
        if (fs.statSync(file).mtimeMs < cutoff) fs.rmSync(file, { force: true });
      } catch {
        // Gone already.
      }
    }
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
    if (snapshot.kind !== 'bytes') return snapshot.kind === 'large' ? largeFields(snapshot) : snapshot;
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
    this.sweepLarge();
    const used = new Set<string>();
    for (const { f } of sessions.slice(0, MAX_SESSIONS)) {
      for (const m of fs.readFileSync(path.join(this.dir, f), 'utf8').matchAll(/"blob":"([0-9a-f]{64})"/g)) used.add(m[1]);
    }
    for (const blob of fs.readdirSync(this.blobs)) if (!used.has(blob)) fs.rmSync(path.join(this.blobs, blob), { force: true });
  }
}

/** A large snapshot as stored: its fields in a fixed order (`sweepLarge` finds `blob` after `kind`). */
function largeFields(snapshot: LargeSnapshot): LargeSnapshot {
  return {
    kind: 'large',
    size: snapshot.size,
    ...(snapshot.blob !== undefined ? { blob: snapshot.blob } : {}),
    ...(snapshot.sha256 !== undefined ? { sha256: snapshot.sha256 } : {}),
    ...(snapshot.unreliable !== undefined ? { unreliable: snapshot.unreliable } : {}),
  };
}

/** Size and SHA-256 of a file, streamed (1 MB slices: the extension host hashes ~2 ms at a time), or absent. */
export async function fingerprintFile(file: string): Promise<{ kind: 'absent' } | { kind: 'file'; size: number; sha256: string }> {
  let before: fs.Stats;
  try {
    before = await fs.promises.stat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    throw error;
  }
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 })) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  const after = await fs.promises.stat(file);
  if (after.mtimeMs !== before.mtimeMs || after.size !== size) throw new Error('it changed while it was being read');
  return { kind: 'file', size, sha256: hash.digest('hex') };
}
