/**
 * What the capture of the agent's changes (`capture.ts`, `commandWatch.ts`) is given (pure): the
 * reads of the world it decides on, the work on large files it starts, a clock, and where it tells
 * of a change of the log. The VS Code adapter (`actionLogCapture.ts`) hands in the real ones; the
 * unit tests fake them.
 */
import type { ToolReport } from '../../session/model/agentMeta';
import type { ActionLog, FileChange, LargeSnapshot, Snapshot } from './actionLog';
import type { ChangeViews } from './changeViews';

/** Our own writes show up in the file watcher; they are not the agent's. */
export const OWN_WRITE_MS = 3000;
/**
 * File events arrive a little after the change: a command's edits still count as its own for this
 * long after it finished (even when the turn ended meanwhile).
 */
export const COMMAND_GRACE_MS = 2500;

/**
 * The reads capture decides on, all synchronous: the agent is another process, and an `await`
 * between its report and our read would let its write win.
 */
export interface FileReads {
  /** A file's state now. */
  snapshot(path: string): Snapshot;
  /** The key the log knows a file by: symlinks resolved, spelled under its workspace folder. */
  realPath(path: string): string;
  /** Whether the path is a folder now. */
  isFolder(path: string): boolean;
  /** A folder's entries; none when it cannot be read. */
  entries(folder: string): readonly FolderEntry[];
  /**
   * The texts of the open documents without unsaved changes, by path; null for one over the log's
   * size bound (its text is not kept in memory).
   */
  savedDocuments(): ReadonlyMap<string, string | null>;
  /** The unsaved text of the file's open document, when it has one. */
  unsavedText(path: string): string | undefined;
}

export interface FolderEntry {
  readonly name: string;
  readonly kind: 'file' | 'folder' | 'other';
}

/** A document the user saved, as far as capture looks at it (a `vscode.TextDocument` is one). */
export interface SavedDocument {
  readonly version: number;
  readonly isClosed: boolean;
  getText(): string;
}

/** Copies and hashes of files larger than the log keeps texts of, done off the event loop. */
export interface LargeFileWork {
  /** Starts the copy of a large file's text before; what stands for it in the log (or why there is none). */
  copyBefore(sessionId: string, path: string, size: number): Snapshot;
  /** Starts the hash of what the agent left in a large file (`after` gets it once done). */
  fingerprintAfter(sessionId: string, path: string, after: LargeSnapshot): void;
  /** Drops the copy of a change's text before (replaced by a better one). */
  dropBefore(change: FileChange): void;
}

/** How a change of the log is told: shown only, saved with the next batch, or saved now. */
export type LogChange = 'shown' | 'soon' | 'now';

export interface CaptureDeps {
  readonly log: ActionLog;
  /** Sets what the agent left, keeping the view it computes. */
  readonly views: ChangeViews;
  readonly reads: FileReads;
  readonly large: LargeFileWork;
  /** Milliseconds, as `Date.now`. */
  readonly now: () => number;
  readonly changed: (sessionId: string, how: LogChange) => void;
  /** A command changed a file whose text before is not known: the workspace checkpoint may know it. */
  readonly unknownBefore?: (sessionId: string, change: FileChange) => void;
}

/** What capture keeps of a tool call of the running turn, beside the call itself (the session's store). */
export interface CallProgress {
  /** The files it named, resolved. */
  readonly paths: Set<string>;
  /** It was seen completed or failed: its files were settled. */
  finished: boolean;
  /** The latest report of its tool's result (see `agentMeta.ts`); the store does not keep it. */
  report: ToolReport | undefined;
}

/** What the running turn of a session knows of its tool calls, indexed for the file watcher and the resolver. */
export interface TurnCalls {
  readonly byId: Map<string, CallProgress>;
  /**
   * Each path a call of the turn reported, resolved (`realPath`) when first named: every update of a
   * call names its files again, a storm's calls name the same files again and again, and resolving
   * is two or three system calls each time. One turn, one key per reported path: its changes stay
   * together even if the path resolves otherwise later.
   */
  readonly resolved: Map<string, string>;
  /** Every path a call of the turn named: a file event of one of them is the call's, not a command's. */
  readonly named: Set<string>;
  /** The calls that may still change files (not finished, of a kind that may): file events are listened to meanwhile. */
  readonly changing: Set<CallProgress>;
}

export function newTurnCalls(): TurnCalls {
  return { byId: new Map(), resolved: new Map(), named: new Set(), changing: new Set() };
}
