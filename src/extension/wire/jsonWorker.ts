/**
 * JSON.parse and JSON.stringify of huge messages on a worker thread, off the extension host's
 * main thread.
 *
 * One agent message can be ten megabytes: `fs/write_text_file` of a large file, the answer to its
 * `fs/read_text_file`. Parsing or serialising it is one uninterrupted stretch of main-thread work
 * (tens of milliseconds for 10 MB) that every other extension in the host waits out. On a worker
 * the main thread only copies bytes in and the result out (structured clone: for a message that is
 * big because of one big string, a copy of that string).
 *
 * The worker starts on first use, and stops after a minute without work. If it cannot start or
 * dies, {@link JsonWorker.parse} and {@link JsonWorker.stringify} reject (or answer `undefined`
 * once it is known to be unavailable) and the caller does the work itself: slower, still correct.
 */
import { Worker } from 'node:worker_threads';

/** Messages of at least this many bytes are parsed and serialised on the worker. */
export const OFF_THREAD_BYTES = 1024 * 1024;

/** The worker stops after this long without a job (it is started again when needed). */
const IDLE_MS = 60_000;

/**
 * The worker's program, evaluated as CommonJS (no file to bundle or ship). A parse answers the
 * value (or the parse error's message); a stringify answers the line's UTF-8 bytes, transferred.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const decoder = new TextDecoder();
const encoder = new TextEncoder();
parentPort.on('message', (job) => {
  try {
    if (job.kind === 'parse') {
      parentPort.postMessage({ id: job.id, value: JSON.parse(decoder.decode(job.bytes)) });
    } else {
      const bytes = encoder.encode(JSON.stringify(job.value) + '\\n');
      parentPort.postMessage({ id: job.id, bytes }, [bytes.buffer]);
    }
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

interface Reply {
  id: number;
  value?: unknown;
  bytes?: Uint8Array;
  error?: string;
}

interface Pending {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

/** JSON that failed to parse on the worker (the line is malformed, not the worker broken). */
export class WorkerParseError extends Error {
  override name = 'WorkerParseError';
}

export class JsonWorker {
  private worker: Worker | undefined;
  private unavailable = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly createWorker: () => Worker = () => new Worker(WORKER_SOURCE, { eval: true })) {}

  /** False once the worker failed to start or died: do the work on this thread. */
  get available(): boolean {
    return !this.unavailable;
  }

  /**
   * The value of a JSON text, parsed on the worker; `bytes` are copied to it (the caller keeps
   * them, e.g. to parse them itself if the worker fails). Rejects with {@link WorkerParseError}
   * for malformed JSON, with another error if the worker failed.
   */
  async parse(bytes: Uint8Array): Promise<unknown> {
    const reply = await this.run({ kind: 'parse', bytes });
    if (reply.error !== undefined) throw new WorkerParseError(reply.error);
    return reply.value;
  }

  /** `JSON.stringify(value) + '\n'` in UTF-8, made on the worker (value is copied to it). */
  async stringify(value: unknown): Promise<Uint8Array> {
    const reply = await this.run({ kind: 'stringify', value });
    if (reply.error !== undefined || reply.bytes === undefined) throw new Error(`the JSON worker could not serialise a message: ${reply.error ?? 'no bytes'}`);
    return reply.bytes;
  }

  dispose(): void {
    this.stop(new Error('the JSON worker was stopped'));
  }

  private run(job: { kind: 'parse'; bytes: Uint8Array } | { kind: 'stringify'; value: unknown }): Promise<Reply> {
    const worker = this.start();
    if (!worker) return Promise.reject(new Error('the JSON worker is not available'));
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Held while jobs wait, so a process waiting only on the worker does not exit under it.
      if (this.pending.size === 1) worker.ref();
      try {
        worker.postMessage({ id, ...job });
      } catch (error) {
        this.pending.delete(id);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private start(): Worker | undefined {
    if (this.unavailable) return undefined;
    if (this.worker) {
      this.armIdleTimer();
      return this.worker;
    }
    let worker: Worker;
    try {
      worker = this.createWorker();
    } catch {
      this.unavailable = true;
      return undefined;
    }
    worker.on('message', (reply: Reply) => {
      const job = this.pending.get(reply.id);
      if (!job) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      job.resolve(reply);
    });
    worker.on('error', (error) => {
      this.unavailable = true;
      this.stop(error);
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      // An exit we did not ask for: the worker is broken here, do the work on the main thread.
      this.unavailable = true;
      this.stop(new Error(`the JSON worker exited (code ${code})`));
    });
    worker.unref();
    this.worker = worker;
    this.armIdleTimer();
    return worker;
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0) this.stop(undefined);
      else this.armIdleTimer();
    }, IDLE_MS);
    this.idleTimer.unref();
  }

  private stop(error: Error | undefined): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate().catch(() => undefined);
    const failure = error ?? new Error('the JSON worker was stopped');
    for (const job of this.pending.values()) job.reject(failure);
    this.pending.clear();
  }
}

/** The host's one JSON worker, shared by every agent connection. */
let shared: JsonWorker | undefined;
export function sharedJsonWorker(): JsonWorker {
  return (shared ??= new JsonWorker());
}

/**
 * Whether a message is at least `limit` bytes of JSON, judged without serialising it: the sum of
 * its strings' lengths, over at most `maxNodes` values (a message big from thousands of small
 * values is rare; one big string, a file's text, is the usual giant).
 */
export function isAtLeast(value: unknown, limit: number, maxNodes = 256): boolean {
  let size = 0;
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && nodes < maxNodes) {
    const item = stack.pop();
    nodes++;
    if (typeof item === 'string') {
      size += item.length;
      if (size >= limit) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (item !== null && typeof item === 'object') {
      for (const key in item) stack.push((item as Record<string, unknown>)[key]);
    }
  }
  return false;
}
