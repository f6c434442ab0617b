/**
 * Runs tasks with the same key one after another, in submission order; different keys run
 * independently. The ACP SDK starts notification handlers in arrival order but does not wait for
 * an async one to settle before the next, so `session/update`s of one session go through here.
 */
export class KeyedSerialQueue {
  /** The settled-or-not tail of each key's chain; removed once its last task finishes. */
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs `task` after every task submitted earlier under `key` has settled. The returned promise
   * settles like the task; a failing task does not stop the ones after it.
   */
  run<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    // `then(task)` also turns a synchronous throw into a rejection of `result`.
    const result = previous.then(task);
    const tail = result.then(ignore, ignore);
    this.tails.set(key, tail);
    void tail.then(() => {
      // Nothing was queued behind this task: forget the key, so finished work holds no memory.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task queued or running. */
  get activeKeys(): number {
    return this.tails.size;
  }

  /** Resolves once every task submitted so far under `key` has settled. */
  idle(key: string): Promise<void> {
    return this.tails.get(key) ?? Promise.resolve();
  }
}

function ignore(): void {}
