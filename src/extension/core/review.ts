/**
 * What the agent changed through `fs/write_text_file`, turn by turn (pure). The first write of a
 * file in a turn records what was there before — the bytes on disk and, when the editor had
 * unsaved changes, that text too — so Undo can restore exactly that.
 */

export interface FileSnapshot {
  /** False when the agent created the file. */
  existed: boolean;
  /** The file's bytes on disk before the agent wrote it. */
  bytes?: Uint8Array;
  /** The editor's unsaved text, when the document had unsaved changes. */
  unsavedText?: string;
}

export type ChangeStatus = 'pending' | 'kept' | 'undone';

export interface FileChange {
  readonly path: string;
  readonly before: FileSnapshot;
  status: ChangeStatus;
}

export interface TurnChanges {
  readonly sessionId: string;
  readonly turn: number;
  readonly files: FileChange[];
}

export class ReviewLog {
  /** The running (or last) turn of each session. */
  private readonly turns = new Map<string, TurnChanges>();
  /** The latest turn of each session that changed files: it stays reviewable until another does. */
  private readonly reviewable = new Map<string, TurnChanges>();
  private turnCounter = 0;

  /** A new turn of this session begins: later writes belong to it. */
  beginTurn(sessionId: string): void {
    this.turns.set(sessionId, { sessionId, turn: ++this.turnCounter, files: [] });
  }

  /** Whether the running turn already holds a snapshot of the file (then none is needed). */
  has(sessionId: string, path: string): boolean {
    return this.turns.get(sessionId)?.files.some((f) => f.path === path) ?? false;
  }

  /** Records a write; only the first write of a file in a turn keeps its snapshot. */
  recordWrite(sessionId: string, path: string, before: FileSnapshot): FileChange {
    let turn = this.turns.get(sessionId);
    if (!turn) {
      this.beginTurn(sessionId);
      turn = this.turns.get(sessionId)!;
    }
    const existing = turn.files.find((f) => f.path === path);
    if (existing) {
      existing.status = 'pending';
      return existing;
    }
    const change: FileChange = { path, before, status: 'pending' };
    turn.files.push(change);
    this.reviewable.set(sessionId, turn);
    return change;
  }

  /** The latest turn of a session that changed files. */
  latest(sessionId: string): TurnChanges | undefined {
    return this.reviewable.get(sessionId);
  }

  /** A file's change in the reviewable turn. */
  find(sessionId: string, path: string): FileChange | undefined {
    return this.reviewable.get(sessionId)?.files.find((f) => f.path === path);
  }
}
