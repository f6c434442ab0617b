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
    const runningAt = this.runningKeys.lastIndexOf(key);
    if (runningAt >= 0) {
      // Submitted by the task running at once under this key: it waits until that task settles.
      const waitFor = (this.runningGates[runningAt] ??= gate());
      return this.chain(key, (this.tails.get(key) ?? waitFor.promise).then(task));
    }
    const previous = this.tails.get(key);
    if (!previous) return this.runNow(key, task);
    // `then(task)` also turns a synchronous throw into a rejection of `result`.
    return this.chain(key, previous.then(task));
  }

  /**
   * Like `run` for a task whose result nobody awaits: a failure goes to `onError` instead of a
   * promise. With nothing queued or running under `key` and a synchronous task, it runs at once
   * and costs no promise at all. Order and isolation are `run`'s: after every task submitted
   * earlier under `key`, and a failing task does not stop the ones after it.
   */
  submit(key: string, task: () => unknown, onError: (error: unknown) => void): void {
    this.submitWith(key, runThunk, task, onError, reportToThunk);
  }

  /**
   * `submit` for the hot path (every `session/update`, thousands a second): `task` is called with
   * the key and two arguments, and `onError` with the key and the error, so a caller passes
   * functions it made once instead of two closures (and their context) per task. Nothing is
   * allocated when the task runs at once.
   */
  submitWith<A, B>(key: string, task: (key: string, a: A, b: B) => unknown, a: A, b: B, onError: (key: string, error: unknown, a: A, b: B) => void): void {
    if (this.tails.has(key) || this.runningKeys.includes(key)) {
      this.run(key, () => task(key, a, b)).catch((error: unknown) => onError(key, error, a, b));
      return;
    }
    this.startRunningNow(key);
    let value: unknown;
    try {
      value = task(key, a, b);
    } catch (error) {
      this.settleRunningNow()?.open();
      onError(key, error, a, b);
      return;
    }
    const running = this.settleRunningNow();
    if (!isThenable(value)) {
      running?.open();
      return;
    }
    const result = Promise.resolve(value);
    result.catch((error: unknown) => onError(key, error, a, b));
    if (running) {
      // Tasks submitted meanwhile already form the chain, behind the gate: open it when this settles.
      result.then(running.open, running.open);
      return;
    }
    void this.chain(key, result);
  }

  /**
   * Keys whose task is running synchronously inside `run` or `submit`, innermost last (a task may
   * submit under another key, which then runs at once inside it), each with a gate once a task
   * waits for it. A stack of usually one key: no Map update and no allocation per task.
   */
  private readonly runningKeys: string[] = [];
  private readonly runningGates: (Gate | undefined)[] = [];

  private startRunningNow(key: string): void {
    this.runningKeys.push(key);
    this.runningGates.push(undefined);
  }

  /** Ends the innermost synchronous run; returns the gate tasks submitted meanwhile wait behind, if any. */
  private settleRunningNow(): Gate | undefined {
    this.runningKeys.pop();
    return this.runningGates.pop();
  }

  private runNow<T>(key: string, task: () => Promise<T> | T): Promise<T> {
    this.startRunningNow(key);
    let value: Promise<T> | T;
    try {
      value = task();
    } catch (error) {
      this.settleRunningNow()?.open();
      return Promise.reject(error as Error);
    }
    const running = this.settleRunningNow();
    if (!isThenable(value)) {
      running?.open();
      return Promise.resolve(value);
    }
    const result = Promise.resolve(value);
    // Tasks submitted meanwhile already form the chain, behind the gate: open it when this settles.
    if (running) {
      result.then(running.open, running.open);
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

/** `submit` through `submitWith`: the task is the first argument, `onError` the second. */
function runThunk(_key: string, task: () => unknown): unknown {
  return task();
}

function reportToThunk(_key: string, error: unknown, _task: () => unknown, onError: (error: unknown) => void): void {
  onError(error);
}

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
