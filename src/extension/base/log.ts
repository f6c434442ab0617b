/**
 * The extension's logger: one LogOutputChannel ("ACP Native"), created in `activate` and
 * injected. It holds what a user reads to see what went wrong: agent starts and exits, the
 * agent's stderr, skipped non-JSON output, failed requests. There is no trace of protocol
 * traffic yet; when it comes (a setting such as `acpNative.trace`), it gets a channel of its own,
 * created on first use, so a user who never traces never sees an empty one.
 */
export interface Logger {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string | Error, ...rest: unknown[]): void;
  /** Shows the log to the user. */
  show(): void;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}
