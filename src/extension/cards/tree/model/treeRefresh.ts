/**
 * What the Tool Calls tree must refresh, gathered between two refreshes (pure).
 *
 * VS Code re-fetches every child of a refreshed node and of its expanded descendants, and a root
 * refresh re-fetches everything: every session with up to `CALLS_PER_GROUP` calls listed, and any
 * group the user opened. A refresh must cost in proportion to what changed, so the tree names the
 * nodes that changed: a session whose calls were added (its children change), single calls that
 * changed in place, the review nodes of a session whose log changed; the root only when sessions
 * come or go.
 */

export interface RefreshTargets {
  /** Everything: sessions were added or removed. */
  readonly root: boolean;
  /** Sessions whose node and children change (calls added, title, busy, review turns). */
  readonly sessions: readonly string[];
  /** Calls that changed in place, of sessions not refreshed as a whole. */
  readonly calls: readonly { readonly sessionId: string; readonly toolCallId: string }[];
  /** Sessions whose review nodes (not the session itself) change. */
  readonly reviews: readonly string[];
}

export class PendingRefresh {
  private root = false;
  private readonly sessions = new Set<string>();
  private readonly calls = new Map<string, Set<string>>();
  private readonly reviews = new Set<string>();

  get empty(): boolean {
    return !this.root && this.sessions.size === 0 && this.calls.size === 0 && this.reviews.size === 0;
  }

  everything(): void {
    this.root = true;
  }

  session(sessionId: string): void {
    this.sessions.add(sessionId);
  }

  call(sessionId: string, toolCallId: string): void {
    let ids = this.calls.get(sessionId);
    if (!ids) {
      ids = new Set();
      this.calls.set(sessionId, ids);
    }
    ids.add(toolCallId);
  }

  review(sessionId: string): void {
    this.reviews.add(sessionId);
  }

  /** The targets gathered so far, without what a wider refresh already covers; starts over. */
  take(): RefreshTargets {
    const whole = this.sessions;
    const targets: RefreshTargets = this.root
      ? { root: true, sessions: [], calls: [], reviews: [] }
      : {
          root: false,
          sessions: [...whole],
          calls: [...this.calls].filter(([sessionId]) => !whole.has(sessionId)).flatMap(([sessionId, ids]) => [...ids].map((toolCallId) => ({ sessionId, toolCallId }))),
          reviews: [...this.reviews].filter((sessionId) => !whole.has(sessionId)),
        };
    this.root = false;
    this.sessions.clear();
    this.calls.clear();
    this.reviews.clear();
    return targets;
  }
}

/** What a session node shows that its own events do not all announce (busy comes with the session list). */
export interface SessionShown {
  readonly id: string;
  readonly busy: boolean;
}

/**
 * How the list of sessions changed since it was last seen: `root` when a session came or went
 * (or the order changed), else the sessions whose node must be redrawn (busy started or ended).
 */
export function sessionListChange(before: readonly SessionShown[], after: readonly SessionShown[]): { root: boolean; changed: string[] } {
  if (before.length !== after.length || before.some((s, i) => s.id !== after[i].id)) return { root: true, changed: [] };
  return { root: false, changed: after.filter((s, i) => s.busy !== before[i].busy).map((s) => s.id) };
}

/** The quickest the tree refreshes (ms): changes arriving meanwhile are merged into one refresh. */
export const MIN_REFRESH_DELAY_MS = 50;
/** The slowest it refreshes under load: the view still follows the agent twice a second. */
export const MAX_REFRESH_DELAY_MS = 500;
/** The share of the extension host a busy tree may take: a refresh costing c ms waits c × this. */
export const REFRESH_COST_FACTOR = 10;
/**
 * VS Code's tree view (the extension host's side of it) debounces a provider's change events by
 * 200 ms, trailing: an event within 200 ms of the previous one postpones the redraw again, and only
 * an event with no redraw pending goes through at once. Refreshes closer than that never reached
 * the view while a storm lasted: it drew the storm's first refresh and then nothing until 200 ms
 * after the last one (1–2 s late), and every `reveal` waited for that.
 */
export const VSCODE_TREE_DEBOUNCE_MS = 200;
/** The least time between two refreshes: past VS Code's debounce, so each one is drawn at once. */
export const MIN_REFRESH_INTERVAL_MS = VSCODE_TREE_DEBOUNCE_MS + 50;

/**
 * The wait before the next refresh, from what the last one cost the extension host (ms: building
 * the items, VS Code converting and sending them) and how long ago it was. A refresh of 5 ms waits
 * the minimum 50 ms; one of 40 ms (a loaded machine, a session of thousands of calls) waits 400 ms,
 * so the tree takes about a tenth of the host whatever the load, and every other extension keeps
 * the rest. Two refreshes are at least `MIN_REFRESH_INTERVAL_MS` apart: a lone change shows after
 * 50 ms, a storm every quarter of a second.
 */
export function refreshDelay(lastCostMs: number, sinceLastRefreshMs = Number.POSITIVE_INFINITY): number {
  const byCost =
    !Number.isFinite(lastCostMs) || lastCostMs <= 0
      ? MIN_REFRESH_DELAY_MS
      : Math.min(MAX_REFRESH_DELAY_MS, Math.max(MIN_REFRESH_DELAY_MS, Math.round(lastCostMs * REFRESH_COST_FACTOR)));
  const spacing = Number.isNaN(sinceLastRefreshMs) ? 0 : Math.ceil(MIN_REFRESH_INTERVAL_MS - sinceLastRefreshMs);
  return Math.max(byCost, spacing);
}
