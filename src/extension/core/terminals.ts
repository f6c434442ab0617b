import type { TerminalMeta } from '../../protocol/terminalMeta';
import { ChunkedText, utf16Units, type TextSlice } from './textChunks';

/**
 * Display terminals: the `_meta` convention (Claude's and Codex's adapters, Zed) where the agent
 * runs the command itself and only shows it to us. Never created with `terminal/create`: a
 * terminal exists from the first message that names its id, whichever of `terminal_info`,
 * `terminal_output` or `terminal_exit` that is (output may come before info).
 */

/**
 * Output kept per display terminal, in string length (1 or 2 bytes each in memory): 1 Mi, like a
 * client terminal's default `outputByteLimit`. Its panel is only ever given the newest part of it
 * (a burst or a reopened panel gets its backlog, 128 Ki), so keeping more would only cost memory.
 */
export const DEFAULT_DISPLAY_OUTPUT_LIMIT = 1024 * 1024;

export interface TerminalExit {
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** Growing output of a display terminal; offsets stay valid when the front is dropped. */
export interface TerminalOutput {
  /** Offset past the last character ever appended. */
  readonly length: number;
  /** Offsets below this were dropped by the memory cap. */
  readonly dropped: number;
  /** The kept output. */
  readonly text: string;
  /** What is new since `offset`, for a renderer that remembers how far it got. */
  readFrom(offset: number): TextSlice;
}

export interface DisplayTerminalState {
  readonly id: string;
  /** The tool call that announced it (`terminal_info`), else the first one that mentioned it. */
  toolCallId: string | undefined;
  cwd: string | undefined;
  /** `terminal_info` was seen (a terminal first seen through its output has none yet). */
  announced: boolean;
  /** Set once `terminal_exit` arrives: the command ended. */
  exit: TerminalExit | undefined;
  readonly output: TerminalOutput;
  /** Bumps on every change to this terminal. */
  revision: number;
  /** Shorthand for `output.readFrom(offset)`. */
  readFrom(offset: number): TextSlice;
}

/** Inside the store the output is writable; outside it is read-only. */
type StoredTerminal = DisplayTerminalState & { readonly output: ChunkedText };

export class DisplayTerminalStore {
  private readonly terminals = new Map<string, StoredTerminal>();
  private readonly outputLimit: number;

  constructor(options: { outputLimit?: number } = {}) {
    this.outputLimit = options.outputLimit ?? DEFAULT_DISPLAY_OUTPUT_LIMIT;
  }

  get(id: string): DisplayTerminalState | undefined {
    return this.terminals.get(id);
  }

  /** In order of first sight. */
  all(): DisplayTerminalState[] {
    return [...this.terminals.values()];
  }

  /**
   * Applies the terminal keys of one tool-call message's `_meta` (already read defensively by
   * `readTerminalMeta`). Returns the ids of the terminals that changed. In one message the keys
   * apply in lifecycle order: info, output, exit.
   */
  apply(meta: TerminalMeta, toolCallId: string): Set<string> {
    const changed = new Set<string>();
    if (meta.terminal_info) {
      const terminal = this.getOrCreate(meta.terminal_info.terminal_id, toolCallId, changed);
      // The call that announces a terminal owns it, even if output named another call first.
      terminal.toolCallId = toolCallId;
      terminal.cwd = meta.terminal_info.cwd ?? terminal.cwd;
      terminal.announced = true;
      this.touch(terminal, changed);
    }
    if (meta.terminal_output) {
      const terminal = this.getOrCreate(meta.terminal_output.terminal_id, toolCallId, changed);
      if (meta.terminal_output.data) {
        terminal.output.append(meta.terminal_output.data);
        this.touch(terminal, changed);
      }
    }
    if (meta.terminal_exit) {
      const terminal = this.getOrCreate(meta.terminal_exit.terminal_id, toolCallId, changed);
      terminal.exit = { exitCode: meta.terminal_exit.exit_code, signal: meta.terminal_exit.signal };
      this.touch(terminal, changed);
    }
    return changed;
  }

  private getOrCreate(id: string, toolCallId: string, changed: Set<string>): StoredTerminal {
    let terminal = this.terminals.get(id);
    if (!terminal) {
      changed.add(id);
      const output = new ChunkedText(utf16Units, this.outputLimit);
      terminal = {
        id,
        toolCallId,
        cwd: undefined,
        announced: false,
        exit: undefined,
        output,
        revision: 0,
        readFrom: (offset) => output.readFrom(offset),
      };
      this.terminals.set(id, terminal);
    }
    return terminal;
  }

  private touch(terminal: DisplayTerminalState, changed: Set<string>): void {
    terminal.revision++;
    changed.add(terminal.id);
  }
}
