import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import type { FileChange, LargeSnapshot, SerializedSession, Snapshot } from './model/actionLog';
import { copyChecked, type CopyResult } from './largeFileCopy';

/** A large copy no log names is an orphan once it is this old (see `sweepLarge`). */
const ORPHAN_COPY_AGE_MS = 10 * 60_000;

/** Sessions kept in storage; older ones are dropped when a new one is saved. */
const MAX_SESSIONS = 20;
/** Texts up to this size live in the session's JSON; larger ones are files of their own. */
const INLINE_BYTES = 16 * 1024;
const BLOB_NAME = /^[0-9a-f]{64}$/;

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

/** A session's log waiting for its background write, and who waits for it. */
interface Pending {
  readonly data: SerializedSession;
  readonly waiters: readonly { resolve(): void; reject(error: unknown): void }[];
}

/** The background write under way: its data (a synchronous flush writes it again) and its temporary file. */
interface InFlight {
  readonly sessionId: string;
  readonly data: SerializedSession;
  readonly tmp: string;
  /** A synchronous save of the same session came after: this write must not land. */
  superseded: boolean;
}

/**
 * The action log of each session in the workspace's storage, so Review and checkpoints survive a
 * reload: one JSON file per session, large texts as content-addressed files beside it. Bounded:
 * the most recent sessions only. Files larger than 2 MB are never in memory nor in the JSON: their
 * text before is a byte copy in `large/` (see `copyLarge`), dropped when its change is kept or
 * undone, when its session leaves the storage, and at startup when no stored session names it.
 *
 * The agent's changes are saved in the background (`saveInBackground`): the extension host never
 * waits for the disk during a turn (a rename over the old file stalls while a busy disk flushes the
 * new file's data). Deactivation writes what still waits synchronously (`flushSync`); a log that
 * did not change since its last write is not written again.
 */
export class ActionLogStore {
  private readonly blobs: string;
  /** Copies of large files (one per change or restore point). */
  readonly largeDir: string;
  /**
   * The stored form of each text already saved, by identity (a snapshot's bytes are never changed
   * in place): a log saved again and again during a turn encodes and hashes each text once.
   */
  private readonly storedTexts = new WeakMap<Uint8Array, StoredText>();
  /** Per session: the JSON its file holds, as this store last wrote it. */
  private readonly written = new Map<string, string>();
  /** Per session: the blobs its newest log (written or being written) uses; pruning leaves them. */
  private readonly blobsInUse = new Map<string, ReadonlySet<string>>();
  /** Background saves not started yet, oldest first; a session's newer data replaces its older. */
  private readonly pending = new Map<string, Pending>();
  private inFlight: InFlight | undefined;
  private draining: Promise<void> | undefined;
  private nextTmp = 0;

  constructor(
    private readonly dir: string,
    private readonly deps: {
      /** The large copies the running window still uses that may not be saved in a session yet. */
      liveLarge?: () => ReadonlySet<string>;
    } = {},
  ) {
    this.blobs = path.join(dir, 'blobs');
    this.largeDir = path.join(dir, 'large');
  }

  /**
   * Starts a byte copy of a large file into the storage, now, off the event loop (see
   * `copyChecked`); `done` says whether the copy is the file as it was when it started.
   */
  copyLarge(source: string): { blob: string; done: Promise<CopyResult> } {
    fs.mkdirSync(this.largeDir, { recursive: true });
    const blob = crypto.randomUUID();
    return { blob, done: copyChecked(source, this.largePath(blob)) };
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
    const used = new Set([...(this.deps.liveLarge?.() ?? []), ...this.largeWaitingForWrite()]);
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

  /** Saves now, synchronously (deactivation, tests). Overtakes a background save of the session. */
  save(sessionId: string, data: SerializedSession): void {
    const waiting = this.pending.get(sessionId);
    this.pending.delete(sessionId);
    // Overtaken, a background write may or may not have landed: the file is written whatever it holds.
    const overtaken = this.inFlight?.sessionId === sessionId && this.supersede(this.inFlight);
    try {
      const { json, blobs } = this.encode(sessionId, data);
      fs.mkdirSync(this.blobs, { recursive: true });
      // A blob may have been pruned since (its session dropped, then the text used again): checked.
      for (const [hash, bytes] of blobs) {
        const file = path.join(this.blobs, hash);
        if (!fs.existsSync(file)) fs.writeFileSync(file, bytes);
      }
      if (overtaken || json !== this.written.get(sessionId)) {
        const file = this.fileOf(sessionId);
        const isNew = !this.written.has(sessionId);
        // Written whole then renamed: a crash mid-write leaves the previous log, not half of one.
        fs.writeFileSync(`${file}.tmp`, json);
        fs.renameSync(`${file}.tmp`, file);
        this.written.set(sessionId, json);
        // Only a new session file can push the oldest out.
        if (isNew) this.prune(path.basename(file));
      }
    } catch (error) {
      waiting?.waiters.forEach((w) => w.reject(error));
      throw error;
    }
    waiting?.waiters.forEach((w) => w.resolve());
  }

  /**
   * Saves without blocking: written by Node's thread pool, one log at a time, the newest data of a
   * session replacing what still waits. Resolves once this data (or newer) is on disk; rejects when
   * that write failed.
   */
  saveInBackground(sessionId: string, data: SerializedSession): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiters = [...(this.pending.get(sessionId)?.waiters ?? []), { resolve, reject }];
      // Deleted then set: a session saved again goes to the end of the line.
      this.pending.delete(sessionId);
      this.pending.set(sessionId, { data, waiters });
      this.draining ??= this.drain().finally(() => (this.draining = undefined));
    });
  }

  /** Writes synchronously every log still waiting for, or in the middle of, its background write (deactivation). */
  flushSync(): void {
    const inFlight = this.inFlight;
    if (inFlight && !this.pending.has(inFlight.sessionId)) this.save(inFlight.sessionId, inFlight.data);
    for (const [sessionId, { data }] of [...this.pending]) this.save(sessionId, data);
  }

  /** The large copies named by logs still waiting for their background write (their session may have left memory). */
  private largeWaitingForWrite(): Set<string> {
    const blobs = new Set<string>();
    const logs = [...[...this.pending.values()].map((p) => p.data), ...(this.inFlight ? [this.inFlight.data] : [])];
    for (const log of logs) {
      for (const change of log.changes) {
        for (const snapshot of [change.before, change.after]) if (snapshot?.kind === 'large' && snapshot.blob) blobs.add(snapshot.blob);
      }
    }
    return blobs;
  }

  /** Settles once no background write waits or runs. */
  async whenIdle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  load(sessionId: string): SerializedSession | undefined {
    // Not on disk yet: the log waiting for its write is the newest.
    const waiting = this.pending.get(sessionId)?.data ?? (this.inFlight?.sessionId === sessionId ? this.inFlight.data : undefined);
    if (waiting) return waiting;
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

  private async drain(): Promise<void> {
    for (let next = this.pending.entries().next(); !next.done; next = this.pending.entries().next()) {
      const [sessionId, { data, waiters }] = next.value;
      this.pending.delete(sessionId);
      try {
        await this.writeInBackground(sessionId, data);
        waiters.forEach((w) => w.resolve());
      } catch (error) {
        waiters.forEach((w) => w.reject(error));
      }
    }
  }

  private async writeInBackground(sessionId: string, data: SerializedSession): Promise<void> {
    const file = this.fileOf(sessionId);
    const writing: InFlight = { sessionId, data, tmp: `${file}.${++this.nextTmp}.tmp`, superseded: false };
    this.inFlight = writing;
    try {
      const { json, blobs } = this.encode(sessionId, data);
      await fsp.mkdir(this.blobs, { recursive: true });
      for (const [hash, bytes] of blobs) {
        const blob = path.join(this.blobs, hash);
        if (await exists(blob)) continue;
        // Renamed into place: a synchronous save that finds the blob never finds half of it.
        const tmp = `${blob}.${++this.nextTmp}.tmp`;
        await fsp.writeFile(tmp, bytes);
        await fsp.rename(tmp, blob);
      }
      if (writing.superseded || json === this.written.get(sessionId)) return;
      const isNew = !this.written.has(sessionId);
      await fsp.writeFile(writing.tmp, json);
      if (writing.superseded) return;
      try {
        await fsp.rename(writing.tmp, file);
      } catch (error) {
        // A synchronous save removed our file first: its newer log is the one to keep.
        if (writing.superseded) return;
        throw error;
      }
      if (writing.superseded) return;
      this.written.set(sessionId, json);
      if (isNew) await this.pruneInBackground(path.basename(file));
    } finally {
      if (this.inFlight === writing) this.inFlight = undefined;
      if (writing.superseded) await fsp.rm(writing.tmp, { force: true }).catch(() => undefined);
    }
  }

  /**
   * A synchronous save overtakes the session's background write: its temporary file is removed
   * now, so a rename not yet done finds nothing rather than land the older log over the newer (the
   * kernel orders the two: the rename happened before, and the synchronous write replaces it, or
   * it fails).
   */
  private supersede(writing: InFlight): true {
    writing.superseded = true;
    try {
      fs.rmSync(writing.tmp, { force: true });
    } catch {
      // The rename's own check catches it.
    }
    return true;
  }

  /** The log as stored (texts inline as base64, or as blobs), and the blobs it needs. */
  private encode(sessionId: string, data: SerializedSession): { json: string; blobs: Map<string, Uint8Array> } {
    const blobs = new Map<string, Uint8Array>();
    const snapshot = (s: Snapshot) => this.storeSnapshot(s, blobs);
    const stored: StoredSession = {
      version: 1,
      currentTurn: data.currentTurn,
      changes: data.changes.map((c) => ({ ...c, before: snapshot(c.before), after: c.after ? snapshot(c.after) : null })),
    };
    this.blobsInUse.set(sessionId, new Set(blobs.keys()));
    return { json: JSON.stringify(stored), blobs };
  }

  private fileOf(sessionId: string): string {
    return path.join(this.dir, `${encodeURIComponent(sessionId)}.json`);
  }

  private storeSnapshot(snapshot: Snapshot, blobs: Map<string, Uint8Array>): StoredSnapshot {
    if (snapshot.kind !== 'bytes') return snapshot.kind === 'large' ? largeFields(snapshot) : snapshot;
    let stored = this.storedTexts.get(snapshot.bytes);
    if (!stored) {
      stored = this.encodeSnapshot(snapshot.bytes);
      this.storedTexts.set(snapshot.bytes, stored);
    }
    if ('blob' in stored) blobs.set(stored.blob, snapshot.bytes);
    return stored;
  }

  private encodeSnapshot(bytes: Uint8Array): StoredText {
    if (bytes.length <= INLINE_BYTES) return { kind: 'bytes', base64: Buffer.from(bytes).toString('base64') };
    return { kind: 'bytes', blob: crypto.createHash('sha256').update(bytes).digest('hex') };
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

  /** Whether a blob is used by a log this store wrote or is writing (it may not be on disk yet). */
  private blobInUse(blob: string, dropped: ReadonlySet<string>): boolean {
    for (const [sessionId, blobs] of this.blobsInUse) if (!dropped.has(sessionId) && blobs.has(blob)) return true;
    return false;
  }

  /** Keeps the most recent sessions (the one just saved first) and the large texts they still use. */
  private prune(justSaved: string): void {
    const sessions = fs
      .readdirSync(this.dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => ({ f, mtime: f === justSaved ? Infinity : fs.statSync(path.join(this.dir, f)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    if (sessions.length <= MAX_SESSIONS) return;
    const dropped = this.drop(sessions.slice(MAX_SESSIONS).map((s) => s.f));
    for (const old of sessions.slice(MAX_SESSIONS)) fs.rmSync(path.join(this.dir, old.f), { force: true });
    this.sweepLarge();
    const used = new Set<string>();
    for (const { f } of sessions.slice(0, MAX_SESSIONS)) {
      for (const m of fs.readFileSync(path.join(this.dir, f), 'utf8').matchAll(/"blob":"([0-9a-f]{64})"/g)) used.add(m[1]);
    }
    for (const blob of fs.readdirSync(this.blobs)) {
      if (BLOB_NAME.test(blob) && !used.has(blob) && !this.blobInUse(blob, dropped)) fs.rmSync(path.join(this.blobs, blob), { force: true });
    }
  }

  /** `prune` through the thread pool. */
  private async pruneInBackground(justSaved: string): Promise<void> {
    const names = (await fsp.readdir(this.dir)).filter((f) => f.endsWith('.json'));
    const sessions = await Promise.all(
      names.map(async (f) => ({ f, mtime: f === justSaved ? Infinity : await fsp.stat(path.join(this.dir, f)).then((s) => s.mtimeMs, () => -1) })),
    );
    sessions.sort((a, b) => b.mtime - a.mtime);
    if (sessions.length <= MAX_SESSIONS) return;
    const dropped = this.drop(sessions.slice(MAX_SESSIONS).map((s) => s.f));
    for (const old of sessions.slice(MAX_SESSIONS)) await fsp.rm(path.join(this.dir, old.f), { force: true });
    // Synchronous, but only when a session leaves the storage (the 21st): rare.
    this.sweepLarge();
    const used = new Set<string>();
    for (const { f } of sessions.slice(0, MAX_SESSIONS)) {
      const text = await fsp.readFile(path.join(this.dir, f), 'utf8').catch(() => '');
      for (const m of text.matchAll(/"blob":"([0-9a-f]{64})"/g)) used.add(m[1]);
    }
    for (const blob of await fsp.readdir(this.blobs)) {
      // Asked again right before each removal: a synchronous save may have come meanwhile.
      if (BLOB_NAME.test(blob) && !used.has(blob) && !this.blobInUse(blob, dropped)) await fsp.rm(path.join(this.blobs, blob), { force: true });
    }
  }

  /** Forgets what this store knows of the sessions whose files are dropped; returns their ids. */
  private drop(files: readonly string[]): ReadonlySet<string> {
    const ids = new Set(files.map((f) => decodeURIComponent(f.slice(0, -'.json'.length))));
    for (const id of ids) {
      this.written.delete(id);
      this.blobsInUse.delete(id);
    }
    return ids;
  }
}

function exists(file: string): Promise<boolean> {
  return fsp.access(file).then(() => true, () => false);
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
