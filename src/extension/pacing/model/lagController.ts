/**
 * How far the window is behind, and how often the renderers may ask it to draw (pure).
 *
 * On a machine where the window shares the CPUs with the extension host (two cores, a browser
 * drawing in software), a storm of tool calls makes the window fall behind: it is still drawing
 * the chat patches and tree items of a second ago when the next ones arrive, and while it draws,
 * the extension host (and every other extension in it) waits for a CPU. Sending it less while it
 * is behind lets it catch up; nothing is dropped, only coalesced: each redraw carries everything
 * that changed since the last one.
 *
 * Three signals, each a delay in ms:
 * - `chatMs`: the age of the oldest chat patch the webview has not acknowledged (it acknowledges a
 *   patch once drawn), or how late the last one was acknowledged;
 * - `treeMs`: how long the window took to ask for the Tool Calls tree's children after the last
 *   refresh (or has been taking, when it has not asked yet);
 * - `loopMs`: the extension host's own event-loop delay over the last sample (`monitorEventLoopDelay`).
 *
 * The level moves with hysteresis: it goes up (one step per sample) when a signal passes its
 * `enter` bar, down to normal only when every signal has stayed under its `leave` bar for
 * `HOLD_MS`, and stays where it is in between, so the cadence does not flap with each sample.
 */

export type LagLevel = 'normal' | 'behind' | 'farBehind';

export interface LagSample {
  readonly chatMs: number;
  readonly treeMs: number;
  readonly loopMs: number;
}

/** How often each renderer may ask the window to draw, at a level. */
export interface Cadence {
  readonly level: LagLevel;
  /** The chat gathers changes this long before it posts a patch. */
  readonly chatFlushMs: number;
  /** The least time between two Tool Calls tree refreshes. */
  readonly treeRefreshMs: number;
  /** A terminal panel is given output this often (and only its live tail when output overflows a delivery). */
  readonly terminalDeliverMs: number;
}

/**
 * Normal is today's cadence (a chat frame, the tree past VS Code's 200 ms debounce, terminal
 * batches of 50 ms). Behind: four redraws a second of the chat, one of the tree. Far behind: one
 * redraw of each every second or two; the counters still move (they are a few bytes).
 */
export const CADENCES: Readonly<Record<LagLevel, Cadence>> = {
  normal: { level: 'normal', chatFlushMs: 16, treeRefreshMs: 250, terminalDeliverMs: 50 },
  behind: { level: 'behind', chatFlushMs: 250, treeRefreshMs: 1000, terminalDeliverMs: 200 },
  farBehind: { level: 'farBehind', chatFlushMs: 750, treeRefreshMs: 2000, terminalDeliverMs: 500 },
};

type Bars = Readonly<Record<keyof LagSample, number>>;

/**
 * The bars, per signal (ms). A drawn chat frame is acknowledged within ~50 ms when the window keeps
 * up; the tree is asked for its children within ~100 ms; the host's loop waits under 15 ms (the p99
 * it should keep). `enter` is well above each, `far` a window seconds behind, `leave` near normal.
 */
export const BARS: Readonly<{ enter: Bars; far: Bars; leave: Bars }> = {
  enter: { chatMs: 200, treeMs: 400, loopMs: 40 },
  far: { chatMs: 1000, treeMs: 1500, loopMs: 120 },
  leave: { chatMs: 80, treeMs: 150, loopMs: 15 },
};

/** Every signal under its `leave` bar this long: the window caught up. */
export const HOLD_MS = 300;

const ORDER: readonly LagLevel[] = ['normal', 'behind', 'farBehind'];

function over(sample: LagSample, bars: Bars): boolean {
  return sample.chatMs > bars.chatMs || sample.treeMs > bars.treeMs || sample.loopMs > bars.loopMs;
}

export class LagController {
  private current: LagLevel = 'normal';
  /** Since when every signal has been under its `leave` bar (undefined: not now). */
  private calmSince: number | undefined;

  get level(): LagLevel {
    return this.current;
  }

  get cadence(): Cadence {
    return CADENCES[this.current];
  }

  /** Takes one sample taken at `now` (ms, any monotonic clock); returns the level after it. */
  update(sample: LagSample, now: number): LagLevel {
    const target: LagLevel = over(sample, BARS.far) ? 'farBehind' : over(sample, BARS.enter) ? 'behind' : 'normal';
    const rank = ORDER.indexOf(this.current);
    const targetRank = ORDER.indexOf(target);
    if (targetRank > rank) {
      // One step per sample: a single late acknowledgement does not jump to the slowest cadence.
      this.current = ORDER[rank + 1] as LagLevel;
      this.calmSince = undefined;
      return this.current;
    }
    if (over(sample, BARS.leave)) {
      this.calmSince = undefined;
      return this.current;
    }
    this.calmSince ??= now;
    if (this.current !== 'normal' && now - this.calmSince >= HOLD_MS) {
      // Caught up: straight back to the normal cadence, not a step at a time.
      this.current = 'normal';
      this.calmSince = undefined;
    }
    return this.current;
  }

  /** Back to normal at once (the loop was turned off, or the window started over). */
  reset(): void {
    this.current = 'normal';
    this.calmSince = undefined;
  }
}

/**
 * The counter shown while the window catches up: "4,812 calls, showing the newest" (the chat and
 * the Tool Calls view say the same).
 */
export function catchingUpText(calls: number): string {
  return `${calls.toLocaleString('en-US')} ${calls === 1 ? 'call' : 'calls'}, showing the newest`;
}
