/**
 * What a command changed (pure): the agent runs a command (a build, `sed -i`, a formatter) and the
 * file watcher tells of files changing meanwhile. Which of those events are the agent's: not our own
 * writes, not a document the user saved, not a file a tool call named (the call reports it), not a
 * folder; a temporary file that came and went is none. A file's text before is known only when it
 * was open and saved when the command started (the document still holds it).
 */
import { join } from 'node:path';
import { decodeText, encodeText } from './actionHunks';
import { MAX_SNAPSHOT_BYTES, type FileChange, type Snapshot } from './actionLog';
import { COMMAND_GRACE_MS, OWN_WRITE_MS, type CaptureDeps, type SavedDocument, type TurnCalls } from './captureDeps';

export type DiskEvent = 'changed' | 'created' | 'deleted';

/** At most this many files of a folder a command made are listed (a build's output folder stays quiet). */
export const MAX_FILES_IN_NEW_FOLDER = 100;
/** Folders VS Code's file watcher leaves out by default, never walked here either. */
const UNWATCHED_FOLDERS = new Set(['.git', 'node_modules']);

export interface CommandWatchDeps extends Pick<CaptureDeps, 'log' | 'reads' | 'now' | 'changed' | 'unknownBefore'> {
  /** The tool calls of each session's running (or last) turn. */
  readonly turns: ReadonlyMap<string, TurnCalls>;
  /** Sets what the agent left in a file. */
  readonly setAfter: (sessionId: string, change: FileChange, after: Snapshot) => void;
}

export class CommandWatch {
  /**
   * Per running turn: texts of open, saved documents when it began (the watcher's "before"), with
   * those opened before its first command-like call and those the user saved since; null for a
   * document over the log's size bound, whose text is not kept.
   */
  private readonly docTexts = new Map<string, Map<string, string | null>>();
  /** Sessions whose turn took the documents opened before its first command-like call. */
  private readonly tookAtFirstCall = new Set<string>();
  private readonly ownWrites = new Map<string, number>();
  /**
   * Documents the user saved lately, with their version then. Not a time window like `ownWrites`:
   * a command may change the same file a moment later, and that change is the agent's.
   */
  private readonly userSaves = new Map<string, { document: SavedDocument; version: number; until: number }>();
  /** Per session: until when a file changing on disk is taken for the agent's doing. */
  private readonly commandUntil = new Map<string, number>();
  /** Sessions whose last turn ended: a call of theirs left running still listens, but after a running turn's. */
  private readonly ended = new Set<string>();

  constructor(private readonly deps: CommandWatchDeps) {}

  /**
   * The open documents' texts are taken as the turn begins, before the prompt is sent: taken at the
   * first command instead, an agent that runs its command as it announces it (`sed -i` on 50 open
   * documents) had VS Code reload the document first, and its "before" was the command's result.
   */
  turnBegan(sessionId: string): void {
    this.docTexts.set(sessionId, new Map(this.deps.reads.savedDocuments()));
    this.tookAtFirstCall.delete(sessionId);
    this.ended.delete(sessionId);
  }

  /**
   * A call that may change files (a command, an edit) was applied: files changing on disk are the
   * agent's until it is done, and for `COMMAND_GRACE_MS` after. The first time in a turn that a
   * call still running does so, the open documents' texts are taken (the text before of what a
   * command changes).
   */
  callMayChange(sessionId: string, call: { finished: boolean; wasFinished: boolean }): void {
    if (!call.wasFinished) this.rememberOpenDocuments(sessionId);
    this.commandUntil.set(sessionId, call.finished ? this.deps.now() + COMMAND_GRACE_MS : Infinity);
  }

  /** File events arrive late: a command still running when its turn ends gets its grace from now. */
  turnEnded(sessionId: string): void {
    this.ended.add(sessionId);
    if (this.commandUntil.get(sessionId) === Infinity) this.commandUntil.set(sessionId, this.deps.now() + COMMAND_GRACE_MS);
  }

  /** The agent exited: its commands with it; the file events still on their way get the grace. */
  agentGone(sessionId: string): void {
    const until = this.commandUntil.get(sessionId);
    if (until !== undefined) this.commandUntil.set(sessionId, Math.min(until, this.deps.now() + COMMAND_GRACE_MS));
  }

  /** A path written by us (an undo, a write the agent asked for): its file events are not the agent's. */
  markOwn(path: string): void {
    this.ownWrites.set(path, this.deps.now() + OWN_WRITE_MS);
  }

  /**
   * A document saved in VS Code is the user's writing (or ours), never a command's: a save just
   * after an agent's command (within its grace) was listed as that command's change, and its Undo
   * put back the text from before the user's own edit.
   */
  userSaved(path: string, document: SavedDocument): void {
    const real = this.deps.reads.realPath(path);
    this.userSaves.set(real, { document, version: document.version, until: this.deps.now() + OWN_WRITE_MS });
    // What the user saved is the text before of a command that changes the file later in the turn.
    let text: string | null | undefined;
    for (const [sessionId, texts] of this.docTexts) {
      if (this.ended.has(sessionId)) continue;
      text ??= this.savedText(document);
      texts.set(real, text);
    }
  }

  /** A saved document's text, or null when it is over the log's size bound (not kept in memory). */
  private savedText(document: SavedDocument): string | null {
    const text = document.getText();
    return text.length > MAX_SNAPSHOT_BYTES ? null : text;
  }

  /** The file watcher saw `path` change. */
  diskChanged(path: string, what: DiskEvent): void {
    if (/[\\/]\.git[\\/]/.test(path)) return;
    const now = this.deps.now();
    const listening = [...this.deps.turns]
      .filter(([sessionId, calls]) => (this.commandUntil.get(sessionId) ?? 0) >= now || calls.changing.size > 0)
      // A change goes to the first that listens: a running turn's before one whose turn ended with a
      // call never finished (a cancelled turn's), else that older session takes the new turn's change.
      .sort(([a], [b]) => Number(this.ended.has(a)) - Number(this.ended.has(b)));
    // Outside a command's run (a build, a checkout), file events cost nothing more than this.
    if (listening.length === 0) return;
    for (const [p, until] of this.ownWrites) if (until < now) this.ownWrites.delete(p);
    const real = this.deps.reads.realPath(path);
    if (this.ownWrites.has(real)) return;
    if (this.isUserSave(real, now)) return;
    const { log, reads } = this.deps;
    for (const [sessionId, calls] of listening) {
      if (calls.named.has(real)) return;
      const existing = log.inTurn(sessionId, real);
      if (existing && existing.source !== 'watcher') return;
      const onDisk = reads.snapshot(real);
      // A folder a command made (or touched) is no file it changed: it was listed without undo.
      if (!existing && onDisk.kind === 'unknown' && reads.isFolder(real)) {
        // Files a command writes into a folder it just made can come before the watcher watches the
        // folder (`mkdir d && printf x > d/f`): no event tells of them, so they are looked for here.
        if (what === 'created') for (const file of this.filesIn(real)) this.diskChanged(file, 'created');
        return;
      }
      const before = existing ? existing.before : this.watcherBefore(sessionId, real, what);
      if (onDisk.kind === 'absent' && before.kind !== 'bytes') {
        // Gone again, and not known to have existed before: a temporary file (`sed -i` makes one).
        if (existing) log.remove(sessionId, existing);
        return;
      }
      const change = existing ?? log.record(sessionId, real, 'watcher', before);
      if (!existing && before.kind === 'unknown') this.deps.unknownBefore?.(sessionId, change);
      // The command already ran: what is on disk now is what it left (a later event updates it).
      this.deps.setAfter(sessionId, change, onDisk);
      this.deps.changed(sessionId, 'soon');
      return;
    }
  }

  /**
   * Once per turn, at its first command-like call: the documents opened since it began. Those taken
   * then keep their text: VS Code may already have reloaded one the command changed.
   */
  private rememberOpenDocuments(sessionId: string): void {
    if (this.tookAtFirstCall.has(sessionId)) return;
    this.tookAtFirstCall.add(sessionId);
    const texts = this.docTexts.get(sessionId) ?? new Map<string, string | null>();
    this.docTexts.set(sessionId, texts);
    for (const [path, text] of this.deps.reads.savedDocuments()) if (!texts.has(path)) texts.set(path, text);
  }

  /**
   * Whether the file holds just what the user saved: the document is unchanged since the save (VS
   * Code reloading it after a command's change is a new version) and its text is the file's. Not
   * whether it is dirty: the host may hear that the save made it clean after the file event.
   */
  private isUserSave(path: string, now: number): boolean {
    for (const [p, save] of this.userSaves) if (save.until < now || save.document.isClosed) this.userSaves.delete(p);
    const save = this.userSaves.get(path);
    if (!save || save.document.version !== save.version) return false;
    const onDisk = this.deps.reads.snapshot(path);
    if (onDisk.kind !== 'bytes') return false;
    const decoded = decodeText(onDisk.bytes);
    return decoded.ok && decoded.text === save.document.getText();
  }

  /**
   * A file changed by a command: its text before is known only when it was open and saved when the
   * command started. A "created" event is no proof the file was new (`sed -i` renames a temporary
   * file over the original), so it is not taken as one.
   */
  private watcherBefore(sessionId: string, path: string, what: DiskEvent): Snapshot {
    const text = this.docTexts.get(sessionId)?.get(path);
    const by = `changed by a command${what === 'changed' ? '' : ` (${what})`}`;
    if (text === undefined) return { kind: 'unknown', reason: `${by}; its earlier text was not captured` };
    if (text === null) return { kind: 'unknown', reason: `${by}; larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MB, its earlier text was not kept` };
    const now = this.deps.reads.snapshot(path);
    const decoded = now.kind === 'bytes' ? decodeText(now.bytes) : undefined;
    return { kind: 'bytes', bytes: encodeText(text, decoded?.ok ? decoded.bom : false) };
  }

  /** The files under a folder, breadth first, at most MAX_FILES_IN_NEW_FOLDER of them. */
  private filesIn(folder: string): string[] {
    const files: string[] = [];
    const folders = [folder];
    for (let i = 0; i < folders.length && files.length < MAX_FILES_IN_NEW_FOLDER; i++) {
      for (const entry of this.deps.reads.entries(folders[i])) {
        const path = join(folders[i], entry.name);
        if (entry.kind === 'folder' && !UNWATCHED_FOLDERS.has(entry.name)) folders.push(path);
        else if (entry.kind === 'file' && files.length < MAX_FILES_IN_NEW_FOLDER) files.push(path);
      }
    }
    return files;
  }
}
