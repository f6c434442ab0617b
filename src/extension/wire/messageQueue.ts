/**
 * The readable side of the agent's message stream: parsed messages queued in order, read by the
 * ACP SDK one at a time.
 *
 * A WHATWG `ReadableStream` did this before, at a cost that showed in every update: Node's web
 * streams are plain JavaScript, and each message paid an enqueue record, a size-strategy call, a
 * pull-if-needed check, a read request, a deferred promise with two closures and the dequeue
 * bookkeeping (profiled: ~5 ms per 10,000 `session/update`s, 15–20% of the extension's framing,
 * as much again as the SDK's own dispatch of a message). Here a message is an array slot and a
 * resolved promise.
 *
 * What the SDK uses of a readable (`@agentclientprotocol/sdk` 2.x, `Connection.receive`):
 * `getReader()`, then `read()` until done, `releaseLock()`, and `cancel(reason)` when the
 * connection closes. Those behave as a default reader of a `ReadableStream` does:
 * - `enqueue` hands a message to a waiting `read()` or queues it;
 * - `close()` ends the stream once every queued message is read; `error(e)` drops what is queued
 *   and fails pending and later reads with `e`;
 * - `cancel()` (on the stream or its reader) drops what is queued, ends pending and later reads
 *   as done and calls the source's `cancel`.
 * Piping, teeing and async iteration are not implemented: they throw, so an SDK that starts using
 * them fails loudly (the e2e tests run the real SDK over this) instead of misbehaving.
 */

import type { ReadableStreamDefaultReader, ReadableStreamReadDoneResult, ReadableStreamReadResult } from 'node:stream/web';

export interface MessageQueueController<T> {
  /** Hands `value` to a waiting read, or queues it. Ignored once closed, errored or cancelled. */
  enqueue(value: T): void;
  /** No more messages: reads get what is queued, then done. */
  close(): void;
  /** The stream failed: what is queued is dropped, reads fail with `reason`. */
  error(reason: unknown): void;
}

export interface MessageQueueSource<T> {
  /** Called once, at construction, with the controller that feeds the queue. */
  start(controller: MessageQueueController<T>): void;
  /** The reader gave up (the connection closed): stop producing. */
  cancel?(reason: unknown): void;
}

type State = 'open' | 'closed' | 'errored';

interface PendingRead<T> {
  readonly resolve: (result: ReadableStreamReadResult<T>) => void;
  readonly reject: (reason: unknown) => void;
}

const DONE: ReadableStreamReadDoneResult<never> = Object.freeze({ done: true, value: undefined });

/** A `ReadableStream` of messages for the ACP SDK; see the module comment for what it implements. */
export class MessageQueue<T> {
  private readonly queue: T[] = [];
  /** Index of the next message to read in `queue` (read ones are dropped in bulk). */
  private head = 0;
  private state: State = 'open';
  private failure: unknown;
  /** At most one: the SDK reads one message at a time. More wait in `waiting` anyway. */
  private readonly waiting: PendingRead<T>[] = [];
  private reader: MessageQueueReader<T> | undefined;
  private closedSignal: { promise: Promise<undefined>; resolve: () => void; reject: (reason: unknown) => void } | undefined;

  constructor(private readonly source: MessageQueueSource<T>) {
    source.start({
      enqueue: (value) => this.enqueue(value),
      close: () => this.close(),
      error: (reason) => this.error(reason),
    });
  }

  /** As a ReadableStream's: whether a reader holds the stream. */
  get locked(): boolean {
    return this.reader !== undefined;
  }

  /** Messages queued and not read yet. */
  get queued(): number {
    return this.queue.length - this.head;
  }

  getReader(options?: { mode?: string }): ReadableStreamDefaultReader<T> {
    if (options?.mode !== undefined) throw new TypeError(`this message stream has no "${options.mode}" reader`);
    if (this.reader) throw new TypeError('the message stream is already locked to a reader');
    this.reader = new MessageQueueReader(this);
    return this.reader;
  }

  cancel(reason?: unknown): Promise<void> {
    if (this.reader) return Promise.reject(new TypeError('cannot cancel a message stream locked to a reader'));
    return this.cancelFromReader(reason);
  }

  pipeTo(): never {
    throw unsupported('pipeTo');
  }

  pipeThrough(): never {
    throw unsupported('pipeThrough');
  }

  tee(): never {
    throw unsupported('tee');
  }

  values(): never {
    throw unsupported('values');
  }

  [Symbol.asyncIterator](): never {
    throw unsupported('async iteration');
  }

  /** This object as the SDK's `Stream.readable` type; it implements what the SDK calls (see above). */
  asReadableStream(): ReadableStream<T> {
    return this as unknown as ReadableStream<T>;
  }

  // ── Used by the reader ─────────────────────────────────────────────────────

  /** @internal */
  read(): Promise<ReadableStreamReadResult<T>> {
    if (this.head < this.queue.length) {
      const value = this.queue[this.head++];
      this.compact();
      return Promise.resolve({ done: false, value });
    }
    if (this.state === 'errored') return Promise.reject(this.failure);
    if (this.state === 'closed') return Promise.resolve(DONE);
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** @internal */
  release(reader: MessageQueueReader<T>): void {
    if (this.reader !== reader) return;
    this.reader = undefined;
    // As a ReadableStream's reader: reads still waiting fail when the lock goes.
    const waiting = this.waiting.splice(0);
    for (const read of waiting) read.reject(new TypeError('the reader was released'));
  }

  /** @internal */
  cancelFromReader(reason: unknown): Promise<void> {
    if (this.state === 'errored') return Promise.reject(this.failure);
    if (this.state === 'closed' && this.queued === 0) return Promise.resolve();
    this.state = 'closed';
    this.dropQueued();
    this.endWaiting();
    this.closedSignal?.resolve();
    try {
      this.source.cancel?.(reason);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve();
  }

  /** @internal The reader's `closed`: settles when the stream ends or fails. */
  closedPromise(): Promise<undefined> {
    if (!this.closedSignal) {
      let resolve!: () => void;
      let reject!: (reason: unknown) => void;
      const promise = new Promise<undefined>((ok, fail) => {
        resolve = () => ok(undefined);
        reject = fail;
      });
      // Nobody may be listening: a failed stream must not be an unhandled rejection.
      promise.catch(() => undefined);
      this.closedSignal = { promise, resolve, reject };
      if (this.state === 'errored') reject(this.failure);
      else if (this.state === 'closed' && this.queued === 0) resolve();
    }
    return this.closedSignal.promise;
  }

  // ── Fed by the source ──────────────────────────────────────────────────────

  private enqueue(value: T): void {
    if (this.state !== 'open') return;
    const read = this.waiting.shift();
    if (read) read.resolve({ done: false, value });
    else this.queue.push(value);
  }

  private close(): void {
    if (this.state !== 'open') return;
    this.state = 'closed';
    if (this.queued === 0) {
      this.endWaiting();
      this.closedSignal?.resolve();
    }
  }

  private error(reason: unknown): void {
    if (this.state !== 'open') return;
    this.state = 'errored';
    this.failure = reason;
    this.dropQueued();
    const waiting = this.waiting.splice(0);
    for (const read of waiting) read.reject(reason);
    this.closedSignal?.reject(reason);
  }

  private endWaiting(): void {
    const waiting = this.waiting.splice(0);
    for (const read of waiting) read.resolve(DONE);
  }

  private dropQueued(): void {
    this.queue.length = 0;
    this.head = 0;
  }

  private compact(): void {
    if (this.head === this.queue.length) {
      this.dropQueued();
      // The last queued message of a closed stream is read: the stream is now done.
      if (this.state === 'closed') this.closedSignal?.resolve();
    } else if (this.head > 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }
}

/** The default reader of a {@link MessageQueue}. */
class MessageQueueReader<T> implements ReadableStreamDefaultReader<T> {
  private released = false;

  constructor(private readonly stream: MessageQueue<T>) {}

  get closed(): Promise<undefined> {
    return this.stream.closedPromise();
  }

  read(): Promise<ReadableStreamReadResult<T>> {
    if (this.released) return Promise.reject(new TypeError('the reader was released'));
    return this.stream.read();
  }

  releaseLock(): void {
    if (this.released) return;
    this.released = true;
    this.stream.release(this);
  }

  cancel(reason?: unknown): Promise<void> {
    if (this.released) return Promise.reject(new TypeError('the reader was released'));
    return this.stream.cancelFromReader(reason);
  }
}

function unsupported(what: string): TypeError {
  return new TypeError(`the agent's message stream does not support ${what} (it is read with getReader())`);
}
