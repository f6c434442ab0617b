/**
 * `session/update`s for a session id that has no record yet. Two very different cases:
 * - a session being created: real agents send updates (e.g. `available_commands_update`) before
 *   their `session/new` response names the id. Held, in arrival order, until it does;
 * - an id nobody asked for (a buggy or hostile agent): dropped, and logged once per id, instead of
 *   growing a phantom session.
 * Held updates are bounded; when no creation is in flight any more, what is still held is dropped.
 */
export class EarlyUpdates<Update> {
  private inFlight = 0;
  private readonly held = new Map<string, Update[]>();
  private heldCount = 0;
  private readonly reported = new Set<string>();

  constructor(
    private readonly options: {
      /** Updates held in all, across ids. */
      maxHeld: number;
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

  /** The session now has a record: the updates held for it, oldest first. */
  take(sessionId: string): Update[] {
    const list = this.held.get(sessionId) ?? [];
    this.held.delete(sessionId);
    this.heldCount -= list.length;
    return list;
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
