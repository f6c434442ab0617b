/**
 * The views of the log's changes (hunks, status, line counts), cached (pure, the file read
 * injected): the tree, the chat and the lenses ask often, and a 10 MB rewrite's hunks cost ~200 ms.
 */
import { sameSnapshot, statusOf, turnChangeLabels, viewOf, type ActionLog, type FileChange, type FileChangeView, type Snapshot, type TurnSummary } from './actionLog';

export class ChangeViews {
  private readonly settled = new WeakMap<FileChange, { before: Snapshot; after: Snapshot; view: FileChangeView }>();
  /**
   * The running turn's changes: their view against the file as last read. One tree refresh asks for
   * it several times (the turn's summary, its files, the lenses); the file is read each time, the
   * hunks computed only when its bytes differ.
   */
  private readonly open = new WeakMap<FileChange, { before: Snapshot; current: Snapshot; view: FileChangeView }>();

  constructor(private readonly deps: { log: ActionLog; read: (path: string) => Snapshot }) {}

  /** `ActionLog.setAfter`, keeping the view it computed. */
  setAfter(change: FileChange, after: Snapshot): void {
    const view = this.deps.log.setAfter(change, after);
    this.settled.set(change, { before: change.before, after, view });
  }

  /**
   * A change's hunks and status. The hunks of a settled change are computed once (until its before
   * or after is replaced), its status each time.
   */
  view(change: FileChange): FileChangeView {
    if (!change.after) {
      const current = this.deps.read(change.path);
      const open = this.open.get(change);
      if (open && open.before === change.before && sameSnapshot(open.current, current)) return open.view;
      const view = viewOf(change, current);
      this.open.set(change, { before: change.before, current, view });
      return view;
    }
    const cached = this.settled.get(change);
    if (cached && cached.before === change.before && cached.after === change.after) {
      // A whole-file view has no hunks to cache, and its copy may turn out torn after it was cached.
      if (cached.view.wholeFile) return viewOf(change);
      return cached.view.status === 'no-undo' ? cached.view : { ...cached.view, status: statusOf(change.hunkStates) };
    }
    const view = viewOf(change);
    this.settled.set(change, { before: change.before, after: change.after, view });
    return view;
  }

  views(sessionId: string): FileChangeView[] {
    return this.deps.log.changes(sessionId).map((c) => this.view(c));
  }

  /** What the chat says of each turn of a session (see `turnChangeLabels`), from the log as it is now. */
  turnChanges(sessionId: string, nameOf?: (sessionId: string) => string): (turn: number) => string | undefined {
    return turnChangeLabels(this.views(sessionId), nameOf);
  }

  /** A turn's summary, counting a change still in progress from the file as it is now. */
  summary(sessionId: string, turn: number): TurnSummary {
    const views = this.deps.log
      .changes(sessionId)
      .filter((c) => c.turn === turn)
      .map((c) => this.view(c));
    return { turn, files: views.length, added: views.reduce((n, v) => n + v.added, 0), removed: views.reduce((n, v) => n + v.removed, 0) };
  }
}
