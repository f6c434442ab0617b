/**
 * The display-terminal `_meta` convention (Claude's and Codex's adapters, Zed). Not in the ACP
 * spec: a client opts in with `clientCapabilities._meta.terminal_output: true`, and an agent then
 * announces a terminal on the tool call and streams its output through `_meta` on updates.
 * Shared by the bundled agent (producer) and the extension (consumer).
 */

/** Key under `clientCapabilities._meta` by which a client opts in. */
export const TERMINAL_OUTPUT_CAPABILITY = 'terminal_output';

/** On the `tool_call`: the terminal this card shows. */
export interface TerminalInfoMeta {
  terminal_id: string;
  cwd?: string;
}

/** On a `tool_call_update`: output to APPEND to the terminal. */
export interface TerminalOutputMeta {
  terminal_id: string;
  data: string;
}

/** On the final `tool_call_update`: how the command ended. */
export interface TerminalExitMeta {
  terminal_id: string;
  exit_code: number | null;
  signal: string | null;
}

export interface TerminalMeta {
  terminal_info?: TerminalInfoMeta;
  terminal_output?: TerminalOutputMeta;
  terminal_exit?: TerminalExitMeta;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Shared result for a `_meta` without terminal keys (nearly every tool-call message). */
const NO_TERMINAL_META: TerminalMeta = Object.freeze({});

/** `_meta.terminal_info.terminal_id`, read as `readTerminalMeta` reads it, without building its result. */
export function terminalInfoId(meta: unknown): string | undefined {
  if (!isRecord(meta)) return undefined;
  const info = meta.terminal_info;
  return isRecord(info) && typeof info.terminal_id === 'string' ? info.terminal_id : undefined;
}

/**
 * Reads the terminal keys out of an arbitrary `_meta` object, dropping malformed ones instead of
 * throwing: a third-party agent's `_meta` is untrusted input.
 */
export function readTerminalMeta(meta: unknown): TerminalMeta {
  if (!isRecord(meta) || (meta.terminal_info === undefined && meta.terminal_output === undefined && meta.terminal_exit === undefined)) {
    return NO_TERMINAL_META;
  }
  const out: TerminalMeta = {};
  const info = meta.terminal_info;
  if (isRecord(info) && typeof info.terminal_id === 'string') {
    out.terminal_info = { terminal_id: info.terminal_id, ...(typeof info.cwd === 'string' ? { cwd: info.cwd } : {}) };
  }
  const output = meta.terminal_output;
  if (isRecord(output) && typeof output.terminal_id === 'string' && typeof output.data === 'string') {
    out.terminal_output = { terminal_id: output.terminal_id, data: output.data };
  }
  const exit = meta.terminal_exit;
  if (isRecord(exit) && typeof exit.terminal_id === 'string') {
    out.terminal_exit = {
      terminal_id: exit.terminal_id,
      exit_code: typeof exit.exit_code === 'number' ? exit.exit_code : null,
      signal: typeof exit.signal === 'string' ? exit.signal : null,
    };
  }
  return out;
}

/** Whether a client's capabilities opt in to display terminals. */
export function clientWantsTerminalOutput(clientCapabilities: { _meta?: unknown } | undefined): boolean {
  const meta = clientCapabilities?._meta;
  return isRecord(meta) && meta[TERMINAL_OUTPUT_CAPABILITY] === true;
}
