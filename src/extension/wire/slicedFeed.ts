/**
 * Hands items (an agent's stdout lines) to a sink a slice at a time, one slice per event-loop turn.
 *
 * What the sink does with an item is not all done when `deliver` returns: the line is parsed
 * there, but the ACP SDK dispatches the message in the microtasks that follow its enqueue, so
 * everything delivered in one turn is processed before the event loop turns again. A 64 KiB read of a
 * flooding agent is some 150 messages: delivered at once, they held the extension host (every
 * extension's timers, the UI's requests) for tens of milliseconds. Sliced by size, each turn
 * carries a bounded amount of that work, and the rest waits its turn.
 */

/** Bytes of lines delivered per turn: some 40 typical `session/update`s, a few milliseconds of work. */
export const SLICE_BYTES = 16 * 1024;

export interface SlicedFeedOptions<T> {
  /**
   * Hands one item on, in order. A promise back means the item is still being handled elsewhere
   * (a huge line parsed on a worker): later items wait until it settles, then go on a later turn.
   */
  deliver: (item: T) => void | Promise<void>;
  /** An item's weight against the budget (a line's byte length). */
  sizeOf: (item: T) => number;
  /** Weight delivered per turn; a heavier item still goes, alone. */
  budget?: number;
  /** Runs `fn` on a later turn of the event loop (`setImmediate`); injectable for tests. */
  nextTurn?: (fn: () => void) => void;
  /** Everything pushed so far has been delivered (the source may read more). */
  onDrained: () => void;
}

export class SlicedFeed<T> {
  private readonly queue: T[] = [];
  /** Index of the next item to deliver in `queue` (delivered ones are dropped in bulk). */
  private head = 0;
  private scheduled = false;
  private readonly budget: number;
  private readonly nextTurn: (fn: () => void) => void;

  constructor(private readonly options: SlicedFeedOptions<T>) {
    this.budget = options.budget ?? SLICE_BYTES;
    this.nextTurn = options.nextTurn ?? ((fn) => setImmediate(fn));
  }

  /** Items waiting for a later turn. */
  get pending(): number {
    return this.queue.length - this.head;
  }

  /**
   * Queues `items` behind those waiting; when none was waiting, delivers a first slice now. Calls
   * `onDrained` (now or on a later turn) once the queue is empty.
   */
  push(items: readonly T[]): void {
    for (const item of items) this.queue.push(item);
    if (!this.scheduled) this.deliverSlice();
  }

  private deliverSlice(): void {
    if (this.pending > 0) {
      let spent = 0;
      // At least one item per slice, however heavy; then as many as fit the budget.
      do {
        const item = this.queue[this.head++];
        spent += this.options.sizeOf(item);
        const handled = this.options.deliver(item);
        if (handled instanceof Promise) {
          this.compact();
          this.scheduled = true;
          const next = () => this.nextTurn(() => this.deliverSlice());
          handled.then(next, next);
          return;
        }
      } while (this.head < this.queue.length && spent + this.options.sizeOf(this.queue[this.head]) <= this.budget);
      this.compact();
    }
    if (this.pending === 0) {
      this.scheduled = false;
      this.options.onDrained();
      return;
    }
    this.scheduled = true;
    this.nextTurn(() => this.deliverSlice());
  }

  private compact(): void {
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}
