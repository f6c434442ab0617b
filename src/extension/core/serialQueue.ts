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
   *
   * With nothing queued or running under `key`, the task runs at once: a flood of synchronous
   * tasks (every `session/update` of a busy agent) then costs one promise each instead of a chain
   * of three and a microtask hop, while the order is the same.
   */
  run<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    const running = this.runningNow.get(key);
    if (running) {
      // Submitted by the task running at once under this key: it waits until that task settles.
      running.gate ??= gate();
      return this.chain(key, (this.tails.get(key) ?? running.gate.promise).then(task));
    }
    const previous = this.tails.get(key);
    if (!previous) return this.runNow(key, task);
    // `then(task)` also turns a synchronous throw into a rejection of `result`.
    return this.chain(key, previous.then(task));
  }

  /** Keys whose task is running synchronously inside `run`, with a gate once a task waits for it. */
  private readonly runningNow = new Map<string, { gate?: Gate }>();

  private runNow<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    const running: { gate?: Gate } = {};
    this.runningNow.set(key, running);
    let value: Promise<T> | T;
    try {
      value = task();
    } catch (error) {
      running.gate?.open();
      return Promise.reject(error as Error);
    } finally {
      this.runningNow.delete(key);
    }
    if (!isThenable(value)) {
      running.gate?.open();
      return Promise.resolve(value);
    }
    const result = Promise.resolve(value);
    // Tasks submitted meanwhile already form the chain, behind the gate: open it when this settles.
    if (running.gate) {
      const { open } = running.gate;
      result.then(open, open);
      return result;
    }
    return this.chain(key, result);
  }

  /** Makes `result` the tail of `key`'s chain, forgotten once it settles with nothing behind it. */
  private chain<T>(key: string, result: Promise<T>): Promise<T> {
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

interface Gate {
  readonly promise: Promise<void>;
  readonly open: () => void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function isThenable<T>(value: Promise<T> | T): value is Promise<T> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
