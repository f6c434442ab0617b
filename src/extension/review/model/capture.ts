/**
 * The capture of every file the agent changes, per session and turn (pure: the reads, the clock and
 * the work on large files are injected, see `captureDeps.ts`). However the change came: through
 * `fs/write_text_file`, by the agent itself (reported as tool calls with diffs or edit/delete/move
 * locations), or by a command (seen by the file watcher, `commandWatch.ts`). A file is read the
 * moment a call first names it, before the agent's own write lands; when the write won, the text
 * before is rebuilt from the agent's report, or marked as unknown — never guessed.
 */
import type { ToolCallStatus } from '@agentclientprotocol/sdk';
import { toolReportOf, type ToolReport } from '../../session/model/agentMeta';
import type { ToolCallState } from '../../session/model/toolCalls';
import { decodeText, encodeText, eolOf } from './actionHunks';
import { FROM_CHECKPOINT, sameSnapshot, type FileChange, type Snapshot } from './actionLog';
import { newTurnCalls, type CaptureDeps, type SavedDocument, type TurnCalls } from './captureDeps';
import { CommandWatch, type DiskEvent } from './commandWatch';
import { editTargets, mayChangeFiles, reportedBefore, withEol } from './editTargets';

/** What capture reads of a tool call the session's store applied: the merged call and the message's `_meta`. */
export interface AppliedCall {
  readonly call: Readonly<Pick<ToolCallState, 'id' | 'kind' | 'status' | 'content' | 'locations'>>;
  readonly meta: unknown;
}

type Call = AppliedCall['call'];

const FINISHED: ReadonlySet<ToolCallStatus> = new Set<ToolCallStatus>(['completed', 'failed']);

export class Capture {
  /** The tool calls of each session's running (or last) turn. */
  private readonly turns = new Map<string, TurnCalls>();
  private readonly busy = new Set<string>();
  /** Changes a `fs/write_text_file` recorded and has not finished: a refused one may leave nothing to list. */
  private readonly freshFsChanges = new WeakSet<FileChange>();
  private readonly commands: CommandWatch;

  constructor(private readonly deps: CaptureDeps) {
    this.commands = new CommandWatch({ ...deps, turns: this.turns, setAfter: (sessionId, change, after) => this.setAfter(sessionId, change, after) });
  }

  /** A turn begins; `turn` is the index of its user message in the session. */
  beginTurn(sessionId: string, turn: number): void {
    this.deps.log.beginTurn(sessionId, turn);
    this.busy.add(sessionId);
    this.turns.set(sessionId, newTurnCalls());
    this.commands.turnBegan(sessionId);
  }

  isBusy(sessionId: string): boolean {
    return this.busy.has(sessionId);
  }

  /** The sessions with a turn running. */
  busySessions(): string[] {
    return [...this.busy];
  }

  /**
   * The session's agent exited: a call it left running will never report its end, and what it ran
   * ended with it. Changes on disk from now on (after the grace for late file events) are not its.
   */
  agentGone(sessionId: string): void {
    this.turns.get(sessionId)?.changing.clear();
    this.commands.agentGone(sessionId);
  }

  /** The turn ended: whatever is still open (a watcher change, a call that never reported its end) ends with it. */
  endTurn(sessionId: string): void {
    this.busy.delete(sessionId);
    // File events arrive late: the documents' earlier texts stay until the next turn begins.
    this.commands.turnEnded(sessionId);
    for (const change of this.deps.log.changes(sessionId)) if (!change.after) this.setAfter(sessionId, change, this.deps.reads.snapshot(change.path));
    this.deps.changed(sessionId, 'now');
  }

  /**
   * A tool call as the session's store just applied it, synchronously on its message's arrival:
   * the agent may write the file right after sending it.
   */
  callApplied(sessionId: string, applied: AppliedCall): void {
    if (!this.busy.has(sessionId)) return;
    const { call } = applied;
    const turn = this.turnCalls(sessionId);
    let progress = turn.byId.get(call.id);
    if (!progress) {
      progress = { paths: new Set(), finished: false, report: undefined };
      turn.byId.set(call.id, progress);
    }
    const report = toolReportOf(applied.meta);
    if (report) progress.report = report;
    const finished = FINISHED.has(call.status);
    if (mayChangeFiles(call.kind)) this.commands.callMayChange(sessionId, { finished, wasFinished: progress.finished });
    // A later update may say the call is of a quiet kind after all (`kind` first missing).
    if (!finished && !progress.finished && mayChangeFiles(call.kind)) turn.changing.add(progress);
    else turn.changing.delete(progress);

    for (const reported of editTargets(call)) {
      const path = this.resolve(sessionId, reported);
      if (progress.paths.has(path)) continue;
      progress.paths.add(path);
      turn.named.add(path);
      const existing = this.inTurnKnown(sessionId, path);
      if (existing) {
        this.deps.log.record(sessionId, path, existing.source, existing.before, call.id);
      } else if (finished) {
        // First named once done: the file holds the agent's result, the report tells what was before.
        const after = this.deps.reads.snapshot(path);
        const before = this.beforeFromReport(path, call, progress.report, after);
        // Nothing to list when the report does not say the file changed (a failed call, say).
        if (before.kind === 'unknown' && !(call.status === 'completed' && this.reportsChange(sessionId, call, path))) continue;
        const change = this.deps.log.record(sessionId, path, 'tool', before, call.id);
        change.beforeHow = 'reported after writing';
      } else {
        this.deps.log.record(sessionId, path, 'tool', this.readBefore(sessionId, path), call.id);
      }
      this.deps.changed(sessionId, 'shown');
    }
    if (finished && !progress.finished) {
      progress.finished = true;
      // A call that named no file left nothing in the log to settle, save or show.
      if (progress.paths.size === 0) return;
      for (const path of progress.paths) this.settle(sessionId, path, call, progress.report);
      this.deps.changed(sessionId, 'soon');
    }
  }

  /**
   * Before a `fs/write_text_file`: what the file holds now. Returns the change it recorded, whose
   * text before may be a large file's copy still under way (our own write must wait for it).
   */
  beforeFsWrite(sessionId: string, path: string): FileChange | undefined {
    if (!this.busy.has(sessionId)) this.beginTurn(sessionId, this.deps.log.currentTurn(sessionId));
    const real = this.resolve(sessionId, path);
    this.commands.markOwn(real);
    if (this.inTurnKnown(sessionId, real)) return undefined;
    const change = this.deps.log.record(sessionId, real, 'fs', this.readBefore(sessionId, real));
    this.freshFsChanges.add(change);
    const unsaved = this.deps.reads.unsavedText(real);
    if (unsaved !== undefined) change.beforeUnsaved = unsaved;
    return change;
  }

  /** After a `fs/write_text_file` (`written`, or refused or failed): what the agent left. */
  afterFsWrite(sessionId: string, path: string, written: boolean): void {
    const change = this.deps.log.inTurn(sessionId, this.resolve(sessionId, path));
    if (!change) return;
    const fresh = this.freshFsChanges.delete(change);
    const after = this.deps.reads.snapshot(change.path);
    if (!written && fresh && change.before.kind === 'unknown' && after.kind === 'unknown') {
      // Refused, of something that is no file we can read (a directory, say): nothing changed
      // that we know of, and it was listed as a change without undo.
      this.deps.log.remove(sessionId, change);
      this.deps.changed(sessionId, 'soon');
      return;
    }
    this.setAfter(sessionId, change, after);
    this.deps.changed(sessionId, 'soon');
  }

  /** Marks a path as written by us, so the watcher does not take it for the agent's. */
  markOwn(path: string): void {
    this.commands.markOwn(path);
  }

  /** The user saved a document (its file event is theirs, not a command's). */
  userSaved(path: string, document: SavedDocument): void {
    this.commands.userSaved(path, document);
  }

  /** The file watcher saw a file change. */
  diskChanged(path: string, what: DiskEvent): void {
    this.commands.diskChanged(path, what);
  }

  /** A file's text before the agent changes it, read now; a large file's copy is started instead. */
  private readBefore(sessionId: string, path: string): Snapshot {
    const snapshot = this.deps.reads.snapshot(path);
    return snapshot.kind === 'large' ? this.deps.large.copyBefore(sessionId, path, snapshot.size) : snapshot;
  }

  /** The call is done with a file: what it left, and a check that our "before" was read in time. */
  private settle(sessionId: string, path: string, call: Call, report: ToolReport | undefined): void {
    const change = this.deps.log.inTurn(sessionId, path);
    if (!change) return;
    const after = this.deps.reads.snapshot(path);
    if (change.before.kind === 'absent' && after.kind === 'absent' && call.kind === 'delete') {
      // Gone before we could read it: list it, without an undo we cannot back.
      change.before = { kind: 'unknown', reason: 'the agent deleted it before it could be read' };
    }
    if (change.beforeHow === undefined && report?.original?.path === path) {
      // The agent's own copy of what it replaced beats our read, which a fast write may have torn.
      const reported = this.beforeFromReport(path, call, report, after);
      if (reported.kind !== 'unknown') {
        this.deps.large.dropBefore(change);
        change.before = reported;
        change.beforeHow = "the agent's copy of the original";
      }
    } else if (change.before.kind === 'bytes' && after.kind === 'bytes' && change.beforeHow === undefined) {
      const rebuilt = this.beforeFromReport(path, call, report, after);
      if (sameSnapshot(change.before, after)) {
        // The file reads the same before and after. If the agent reports a change, its write beat
        // our read: take the text before from its report, or say it is not known. A failed call,
        // or one that reports no change, changed nothing.
        if (rebuilt.kind === 'unknown' ? call.status === 'completed' && this.reportsChange(sessionId, call, path) : !sameSnapshot(rebuilt, after)) {
          change.before = rebuilt;
          change.beforeHow = rebuilt.kind === 'unknown' ? undefined : "rebuilt from the agent's report";
        }
      } else if (change.before.bytes.length === 0 && rebuilt.kind === 'bytes' && rebuilt.bytes.length > 0) {
        // An empty read of a file the agent's hunks say was not empty: we read it mid-write (a
        // write truncates first). The report is right.
        change.before = rebuilt;
        change.beforeHow = "rebuilt from the agent's report";
      }
    }
    this.setAfter(sessionId, change, after);
  }

  /** Whether the call's diffs of the file say it changed something. */
  private reportsChange(sessionId: string, call: Call, path: string): boolean {
    return call.content.some((c) => c.type === 'diff' && this.resolve(sessionId, c.path) === path && (c.oldText ?? null) !== c.newText);
  }

  private beforeFromReport(path: string, call: Call, report: ToolReport | undefined, after: Snapshot): Snapshot {
    // A text rebuilt from a report guesses line endings and BOM from the file after, which is not
    // read when large: no whole-file undo to bytes that are not known to be the file's.
    if (after.kind === 'large') return { kind: 'unknown', reason: 'the agent wrote it before it could be copied (larger than 2 MB)' };
    const afterText = after.kind === 'bytes' ? decodeText(after.bytes) : after.kind === 'absent' ? { ok: true as const, text: '', bom: false } : undefined;
    const lf = afterText?.ok ? afterText.text.replace(/\r\n/g, '\n') : undefined;
    const reported = reportedBefore(path, call.content, report?.original, lf);
    switch (reported.kind) {
      case 'absent':
        return { kind: 'absent' };
      case 'unknown':
        return { kind: 'unknown', reason: `the agent wrote it before it could be read, and ${reported.reason}` };
      case 'text': {
        // In the file's own line endings and BOM, which an edit of some lines does not change.
        const eol = afterText?.ok ? eolOf(afterText.text) : '\n';
        return { kind: 'bytes', bytes: encodeText(withEol(reported.text, eol), afterText?.ok ? afterText.bom : false) };
      }
    }
  }

  /** What the agent left; a large file's hash is started (Undo checks the file against it). */
  private setAfter(sessionId: string, change: FileChange, after: Snapshot): void {
    if (after.kind === 'large') this.deps.large.fingerprintAfter(sessionId, change.path, after);
    this.deps.views.setAfter(change, after);
  }

  /**
   * The running turn's change of a file, unless it is only a file event with nothing known of its
   * text before: the agent's own report of the file (a write, a tool call) then replaces it, since
   * it can read the file before the agent changes it.
   */
  private inTurnKnown(sessionId: string, path: string): FileChange | undefined {
    const existing = this.deps.log.inTurn(sessionId, path);
    // A text before the checkpoint gave counts as unknown here: the agent's own report replaces it, as before.
    if (existing?.source !== 'watcher' || (existing.before.kind !== 'unknown' && existing.beforeHow !== FROM_CHECKPOINT)) return existing;
    this.deps.log.remove(sessionId, existing);
    return undefined;
  }

  /** `realPath` of a path the running turn names, resolved once per turn (see `TurnCalls.resolved`). */
  private resolve(sessionId: string, reported: string): string {
    const resolved = this.turnCalls(sessionId).resolved;
    let path = resolved.get(reported);
    if (path === undefined) {
      path = this.deps.reads.realPath(reported);
      resolved.set(reported, path);
    }
    return path;
  }

  private turnCalls(sessionId: string): TurnCalls {
    let calls = this.turns.get(sessionId);
    if (!calls) {
      calls = newTurnCalls();
      this.turns.set(sessionId, calls);
    }
    return calls;
  }
}
