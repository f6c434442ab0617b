// Waiting in the code that drives VS Code (the integration suites, the in-host benches): polls
// that fail with what they waited for instead of hanging, and a promise given a deadline.

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface WaitOptions {
  /** Default 15 s. */
  readonly timeoutMs?: number;
  /** How often `probe` runs; default 50 ms (a bench that times what it waits for polls faster). */
  readonly intervalMs?: number;
  /** What the error says of the state it gave up in. */
  readonly describe?: () => string;
}

/** Polls until `probe` returns (or resolves to) a truthy value and resolves with it; fails naming `what` after the timeout. */
export async function waitFor<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 15_000, intervalMs = 50, describe } = options;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (performance.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${describe ? ` (${describe()})` : ''}`);
    await sleep(intervalMs);
  }
}

/** Fails instead of hanging when a promise does not settle in time. */
export async function within<T>(what: string, promise: Promise<T>, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
