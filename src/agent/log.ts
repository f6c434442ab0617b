/**
 * Diagnostics go to stderr, always: stdout carries nothing but ACP messages. Set
 * `ACP_NATIVE_LOG=debug` for more detail.
 */
const debugEnabled = process.env.ACP_NATIVE_LOG === 'debug';

function write(level: string, message: string, error?: unknown): void {
  const detail = error === undefined ? '' : `: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  process.stderr.write(`[acp-native-agent] ${level} ${message}${detail}\n`);
}

export const log = {
  debug(message: string): void {
    if (debugEnabled) write('debug', message);
  },
  info(message: string): void {
    write('info', message);
  },
  warn(message: string, error?: unknown): void {
    write('warn', message, error);
  },
  error(message: string, error?: unknown): void {
    write('error', message, error);
  },
};
