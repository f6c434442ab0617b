/**
 * `session/update`s for a session id that has no record yet. Two very different cases:
 * - a session being created: real agents send updates (e.g. `available_commands_update`) before
 *   their `session/new` response names the id. Held, in arrival order, until it does;
 * - an id nobody asked for (a buggy or hostile agent): dropped, and logged once per id, instead of
 *   growing a phantom session.
 * Held updates are bounded; when no creation is in flight any more, what is still held is dropped.
 * With `maxOrphans`, updates for an id nobody asked for are kept too (bounded, the oldest id's
 * dropped first): a subagent's traffic may arrive before the `subagent_update` that announces it.
 * A session closed here is not such an id: what its agent still sends (the end of a turn the close
 * cancelled) is dropped, not kept to land at the top of the conversation when it opens again.
 */
export class EarlyUpdates<Update> {
  private inFlight = 0;
  private readonly held = new Map<string, Update[]>();
  private heldCount = 0;
  private readonly reported = new Set<string>();
  /** Updates for ids nobody asked for, kept for a subagent announcement (see `maxOrphans`). */
  private readonly orphans = new Map<string, Update[]>();
  private orphanCount = 0;
  /** Sessions closed and not opened since (bounded like `reported`). */
  private readonly closedIds = new Set<string>();

  constructor(
    private readonly options: {
      /** Updates held in all, across ids. */
      maxHeld: number;
      /** Updates for unknown ids kept (all ids together) for a `subagent_update` to claim; default none. */
      maxOrphans?: number;
      log: (message: string) => void;
    },
  ) {}

  /** A request that creates a session is in flight; call the returned function when it settles. */
  beginCreate(): () => void {
    this.inFlight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight--;
      if (this.inFlight === 0) this.dropAll();
    };
  }

  /** An update whose session has no record: held while a creation is in flight, else dropped. */
  receive(sessionId: string, update: Update): void {
    if (this.inFlight === 0) {
      if (this.closedIds.has(sessionId)) return this.report(sessionId, 'the session was closed');
      if (this.options.maxOrphans) return this.keepOrphan(sessionId, update, this.options.maxOrphans);
      this.report(sessionId, 'no such session');
      return;
    }
    if (this.heldCount >= this.options.maxHeld) {
      this.report(sessionId, `more than ${this.options.maxHeld} updates arrived before the session was created`);
      return;
    }
    const list = this.held.get(sessionId) ?? [];
    if (list.length === 0) this.held.set(sessionId, list);
    list.push(update);
    this.heldCount++;
  }

  /** The session's record was closed: its late updates go, and those kept for it so far. */
  closed(sessionId: string): void {
    if (this.closedIds.size >= 1000) this.closedIds.clear();
    this.closedIds.add(sessionId);
    const orphans = this.orphans.get(sessionId);
    if (!orphans) return;
    this.orphans.delete(sessionId);
    this.orphanCount -= orphans.length;
  }

  /** The session now has a record: the updates held for it, oldest first. */
  take(sessionId: string): Update[] {
    this.closedIds.delete(sessionId);
    const list = this.held.get(sessionId) ?? [];
    this.held.delete(sessionId);
    this.heldCount -= list.length;
    const orphans = this.orphans.get(sessionId);
    if (!orphans) return list;
    this.orphans.delete(sessionId);
    this.orphanCount -= orphans.length;
    return list.length ? [...orphans, ...list] : orphans;
  }

  private keepOrphan(sessionId: string, update: Update, max: number): void {
    while (this.orphanCount >= max && this.orphans.size > 0) {
      // The oldest id goes first: a live subagent's traffic is recent, an invented id's is not.
      const [oldest, list] = this.orphans.entries().next().value as [string, Update[]];
      this.orphans.delete(oldest);
      this.orphanCount -= list.length;
      this.report(oldest, `no subagent_update announced it (${list.length} held, then dropped)`);
      if (oldest === sessionId) return;
    }
    let list = this.orphans.get(sessionId);
    if (!list) {
      list = [];
      this.orphans.set(sessionId, list);
    }
    list.push(update);
    this.orphanCount++;
  }

  private dropAll(): void {
    for (const [sessionId, list] of this.held) this.report(sessionId, `no session with this id was created (${list.length} held)`);
    this.held.clear();
    this.heldCount = 0;
  }

  private report(sessionId: string, why: string): void {
    if (this.reported.has(sessionId)) return;
    // Bounded too: an agent inventing ids must not grow this set for ever.
    if (this.reported.size >= 1000) this.reported.clear();
    this.reported.add(sessionId);
    this.options.log(`Dropped session/update for unknown session ${JSON.stringify(sessionId.slice(0, 100))}: ${why}.`);
  }
}
