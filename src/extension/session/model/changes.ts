/**
 * Coalesced change notification of a session. Agents send updates in storms (a streamed answer is
 * hundreds of chunks; a busy agent, thousands of tool-call updates); the UI must refresh a handful
 * of times, not once per update. Changes accumulate across `apply` calls and are delivered once
 * per flush.
 */

export interface SessionChanges {
  /** Tool calls created or changed, in order of first change. */
  readonly toolCalls: ReadonlySet<string>;
  /** Tool calls seen for the first time (a renderer reveals the newest). */
  readonly newToolCalls: ReadonlySet<string>;
  /** Tool calls whose content was replaced (snippet → applied hunks): their documents must reload. */
  readonly contentReplaced: ReadonlySet<string>;
  /** Display terminals created or changed (output, exit). */
  readonly terminals: ReadonlySet<string>;
  readonly plan: boolean;
  readonly mode: boolean;
  readonly commands: boolean;
  readonly configOptions: boolean;
  readonly usage: boolean;
  readonly transcript: boolean;
  /** Session title or last-activity time. */
  readonly info: boolean;
  readonly notices: boolean;
  /** A plan of `plan_update` was created, changed or removed. */
  readonly plans: boolean;
  /** A compaction began, progressed or ended. */
  readonly compactions: boolean;
  /** A child session was announced or changed (`subagent_update`, its prompt or report). */
  readonly subagents: boolean;
  /** How many `apply` calls this event covers. */
  readonly updates: number;
}

/** The writable accumulator behind a `SessionChanges`. */
export interface PendingChanges {
  readonly toolCalls: Set<string>;
  readonly newToolCalls: Set<string>;
  readonly contentReplaced: Set<string>;
  readonly terminals: Set<string>;
  plan: boolean;
  mode: boolean;
  commands: boolean;
  configOptions: boolean;
  usage: boolean;
  transcript: boolean;
  info: boolean;
  notices: boolean;
  plans: boolean;
  compactions: boolean;
  subagents: boolean;
  updates: number;
}

function emptyChanges(): PendingChanges {
  return {
    toolCalls: new Set(),
    newToolCalls: new Set(),
    contentReplaced: new Set(),
    terminals: new Set(),
    plan: false,
    mode: false,
    commands: false,
    configOptions: false,
    usage: false,
    transcript: false,
    info: false,
    notices: false,
    plans: false,
    compactions: false,
    subagents: false,
    updates: 0,
  };
}

/** Calls `flush` later. Injectable so tests flush deterministically. */
export type FlushScheduler = (flush: () => void) => void;

/**
 * One display frame. `setTimeout(0)` would only merge updates that arrive in the same stdout read;
 * an agent streaming a token every few milliseconds would still cause hundreds of refreshes a
 * second. 16 ms caps the rate near 60 per second and is below what a person perceives as lag.
 */
export const DEFAULT_FLUSH_DELAY_MS = 16;

export const flushAfterFrame: FlushScheduler = (flush) => {
  setTimeout(flush, DEFAULT_FLUSH_DELAY_MS);
};

export type ChangeListener = (changes: SessionChanges) => void;

export class ChangeCoalescer {
  private batch: PendingChanges | undefined;
  private updatesSinceFlush = 0;
  /** At most one flush is scheduled at a time; it delivers whatever accumulated until it runs. */
  private scheduled = false;
  /** Holds in force (see `hold`): while any is, nothing is delivered and no flush is scheduled. */
  private holds = 0;
  private disposed = false;
  private readonly listeners = new Set<ChangeListener>();

  constructor(
    private readonly schedule: FlushScheduler,
    private readonly onListenerError: (error: unknown) => void,
  ) {}

  onDidChange(listener: ChangeListener): { dispose(): void } {
    // A wrapper, so the same function subscribed twice gets two independent subscriptions.
    const subscription: ChangeListener = (changes) => listener(changes);
    this.listeners.add(subscription);
    return { dispose: () => this.listeners.delete(subscription) };
  }

  /** Counts an applied update; it only shows in an event if something also changed. */
  countUpdate(): void {
    this.updatesSinceFlush++;
  }

  /** The accumulator to record a change in; schedules a flush if none is pending. */
  pending(): PendingChanges {
    // Once disposed, changes go nowhere: a scratch record, so nothing accumulates.
    if (this.disposed) return emptyChanges();
    this.batch ??= emptyChanges();
    if (!this.scheduled && this.holds === 0) {
      this.scheduled = true;
      this.schedule(() => {
        this.scheduled = false;
        this.flushNow();
      });
    }
    return this.batch;
  }

  get hasPending(): boolean {
    return this.batch !== undefined;
  }

  /**
   * Holds every change back until the returned release is called, which delivers what accumulated
   * as one event (now). A `session/load` replays a whole conversation before it answers: that is
   * history, so the views render it once, not once a frame while it streams in.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) this.flushNow();
    };
  }

  /** Delivers what accumulated now (e.g. when a turn ends), instead of on the next frame; nothing while held. */
  flushNow(): void {
    const changes = this.batch;
    if (!changes || this.disposed || this.holds > 0) return;
    this.batch = undefined;
    changes.updates = this.updatesSinceFlush;
    this.updatesSinceFlush = 0;
    for (const listener of [...this.listeners]) {
      try {
        listener(changes);
      } catch (error) {
        // One broken renderer must not starve the others of changes.
        this.onListenerError(error);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.batch = undefined;
    this.listeners.clear();
  }
}
