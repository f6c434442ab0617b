import type { IDisposable } from './lifecycle';

/** What the features count for tests and the benchmark (`AcpNativeApi.stats()`, `chatMessagesPosted()`). */
export type CounterName =
  /** Tool Calls tree refreshes. */
  | 'tree.refreshes'
  /** Tree items handed to VS Code, and those that had to be built (not cached). */
  | 'tree.itemsServed'
  | 'tree.itemsBuilt'
  /** Messages the Chat view posted to its webview, by type. */
  | 'chat.reset'
  | 'chat.patch'
  | 'chat.status'
  /** The chat's "N calls, showing the newest" line while the window catches up (and its clearing). */
  | 'chat.progress'
  /** Coalesced action-log changes the hunk lenses looked at, and those that refreshed them. */
  | 'lenses.checks'
  | 'lenses.refreshes';

/** What the renderers keep per card or session: clearing the sessions takes it all away. */
export type GaugeName = 'kept.diffCards' | 'kept.terminalSessions' | 'kept.followAlongSessions' | 'kept.diffBeforeChars';

/**
 * Test and benchmark probes, out of the production classes' own state: counters a feature bumps
 * and gauges it answers when asked. The root creates one and hands it to the features that
 * report; only the API reads it.
 */
export class Probes {
  private readonly counters = new Map<CounterName, number>();
  private readonly gauges = new Map<GaugeName, () => number>();

  count(name: CounterName): void {
    this.counters.set(name, (this.counters.get(name) ?? 0) + 1);
  }

  counter(name: CounterName): number {
    return this.counters.get(name) ?? 0;
  }

  /** Answers `name` with `read()` until the result is disposed. */
  gauge(name: GaugeName, read: () => number): IDisposable {
    this.gauges.set(name, read);
    return { dispose: () => (this.gauges.get(name) === read ? this.gauges.delete(name) : undefined) };
  }

  read(name: GaugeName): number {
    return this.gauges.get(name)?.() ?? 0;
  }
}
