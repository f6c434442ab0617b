import * as fs from 'node:fs';
import type { ActionLog, FileChange, LargeSnapshot, Snapshot } from './model/actionLog';
import type { LargeFileWork } from './model/captureDeps';
import { errorMessage, type Logger } from '../base/log';
import { fingerprintFile } from './largeFileCopy';
import type { ActionLogStore } from './actionLogStore';

/**
 * The copies and hashes of files larger than the log keeps texts of (2–64 MB), taken off the event
 * loop: a change's text before is a copy in the storage, what the agent left is a hash. Undo (and
 * a permission the agent waits on) waits for them; a torn copy is no text before.
 */
export class LargeFiles implements LargeFileWork {
  /** Large files being copied (a text before) or hashed (a text after). */
  private readonly work = new WeakMap<LargeSnapshot, Promise<void>>();
  private readonly busy = new WeakSet<LargeSnapshot>();
  /** Large copies used outside the log (a checkpoint restore's copies of the files it replaced). */
  private readonly otherCopies = new Set<string>();

  constructor(
    private readonly deps: {
      store: ActionLogStore | undefined;
      log: Logger;
      /** A copy or hash of the session's log finished (or failed): its changes look different now. */
      settled: (sessionId: string) => void;
    },
  ) {}

  copyBefore(sessionId: string, path: string, size: number): Snapshot {
    const store = this.deps.store;
    if (!store) return { kind: 'unknown', reason: 'larger than 2 MB, and there is no storage to keep its copy in' };
    let copy: ReturnType<ActionLogStore['copyLarge']>;
    try {
      copy = store.copyLarge(path);
    } catch (error) {
      return { kind: 'unknown', reason: `larger than 2 MB, and it could not be copied (${errorMessage(error)})` };
    }
    const large: LargeSnapshot = { kind: 'large', size, blob: copy.blob };
    this.track(
      large,
      copy.done.then((result) => {
        if (result.ok) {
          large.sha256 = result.sha256;
          return;
        }
        // A torn copy is no text before: no undo rather than an undo to a mix of two versions.
        store.dropLarge(copy.blob);
        delete large.blob;
        large.unreliable = result.reason;
        this.deps.log.warn(`Action log: no undo for ${path}: ${result.reason}`);
      }),
      sessionId,
    );
    return large;
  }

  fingerprintAfter(sessionId: string, path: string, after: LargeSnapshot): void {
    this.track(
      after,
      fingerprintFile(path).then(
        (found) => {
          if (found.kind === 'file' && found.size === after.size) after.sha256 = found.sha256;
          else after.unreliable = 'it changed again while it was being read';
        },
        (error: unknown) => {
          after.unreliable = errorMessage(error);
        },
      ),
      sessionId,
    );
  }

  private track(snapshot: LargeSnapshot, done: Promise<void>, sessionId: string): void {
    this.busy.add(snapshot);
    this.work.set(
      snapshot,
      done.then(() => {
        this.busy.delete(snapshot);
        this.deps.settled(sessionId);
      }),
    );
  }

  /** Whether a change's large file is still being copied or hashed (Undo then waits for it). */
  isBusy(change: FileChange): boolean {
    return [change.before, change.after].some((s) => s?.kind === 'large' && this.busy.has(s));
  }

  /** Resolves when the copy or hash of a snapshot is done (at once when there is none). */
  async done(snapshot: Snapshot | undefined): Promise<void> {
    if (snapshot?.kind === 'large') await this.work.get(snapshot);
  }

  /** Resolves when the copy and hash of a change's large files are done. */
  async settled(change: FileChange): Promise<void> {
    for (const snapshot of [change.before, change.after]) await this.done(snapshot);
  }

  dropBefore(change: FileChange): void {
    if (change.before.kind !== 'large' || change.before.blob === undefined) return;
    this.deps.store?.dropLarge(change.before.blob);
    delete change.before.blob;
  }

  /** The names of the large copies in the storage now. */
  copiesOnDisk(): string[] {
    if (!this.deps.store) return [];
    try {
      return fs.readdirSync(this.deps.store.largeDir);
    } catch {
      return [];
    }
  }

  /** Where a large copy is on disk. */
  copyPath(blob: string): string {
    if (!this.deps.store) throw new Error('There is no storage for copies of large files.');
    return this.deps.store.largePath(blob);
  }

  /** A copy of a large file now (a checkpoint restore keeps what it replaces), or why there is none. */
  async copy(path: string): Promise<{ ok: true; blob: string } | { ok: false; reason: string }> {
    if (!this.deps.store) return { ok: false, reason: 'there is no storage for copies of large files' };
    const copy = this.deps.store.copyLarge(path);
    this.otherCopies.add(copy.blob);
    const result = await copy.done;
    if (result.ok) return { ok: true, blob: copy.blob };
    this.dropCopy(copy.blob);
    return result;
  }

  dropCopy(blob: string): void {
    this.otherCopies.delete(blob);
    this.deps.store?.dropLarge(blob);
  }

  /** The large copies this window uses: the sweep of the storage leaves them alone. */
  live(log: ActionLog): Set<string> {
    const live = new Set(this.otherCopies);
    for (const sessionId of log.sessionIds()) {
      for (const change of log.changes(sessionId)) if (change.before.kind === 'large' && change.before.blob) live.add(change.before.blob);
    }
    return live;
  }
}
