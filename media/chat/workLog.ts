/**
 * The rendering work of the page, time-stamped, for the UI tests that explain a long task
 * (test/ui/streaming.test.mjs sets `window.acpChatWork` to an array). Nothing is recorded, and no
 * text is built, otherwise.
 */
export function logWork(what: () => string): void {
  const log = (globalThis as { acpChatWork?: { at: number; what: string }[] }).acpChatWork;
  if (log && log.length < 100_000) log.push({ at: performance.now(), what: what() });
}
