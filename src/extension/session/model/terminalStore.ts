import type { TerminalMeta } from '../../../protocol/terminalMeta';
import { ChunkedText, utf16Units, type TextSlice, type TextSliceInPieces } from '../../base/textChunks';

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
  /** The same, in the parts it is kept in (not joined: see `ChunkedText.piecesFrom`). */
  piecesFrom(offset: number): TextSliceInPieces;
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
   * `readTerminalMeta`), calling `onChanged` with the id of each terminal that changed (once per
   * key that changed it, so possibly more than once for one terminal). In one message the keys
   * apply in lifecycle order: info, output, exit. A callback, not a returned set: this runs for
   * every line of a command's output, and a set per message was garbage the next moment.
   */
  apply(meta: TerminalMeta, toolCallId: string, onChanged: (terminalId: string, toolCallId: string) => void): void {
    if (meta.terminal_info) {
      const terminal = this.getOrCreate(meta.terminal_info.terminal_id, toolCallId);
      // The call that announces a terminal owns it, even if output named another call first.
      terminal.toolCallId = toolCallId;
      terminal.cwd = meta.terminal_info.cwd ?? terminal.cwd;
      terminal.announced = true;
      terminal.revision++;
      onChanged(terminal.id, toolCallId);
    }
    if (meta.terminal_output) {
      const known = this.terminals.get(meta.terminal_output.terminal_id);
      const terminal = known ?? this.create(meta.terminal_output.terminal_id, toolCallId);
      if (meta.terminal_output.data) {
        terminal.output.append(meta.terminal_output.data);
        terminal.revision++;
      }
      // A terminal first seen through empty output is still new; empty output of a known one changes nothing.
      if (!known || meta.terminal_output.data) onChanged(terminal.id, toolCallId);
    }
    if (meta.terminal_exit) {
      const terminal = this.getOrCreate(meta.terminal_exit.terminal_id, toolCallId);
      terminal.exit = { exitCode: meta.terminal_exit.exit_code, signal: meta.terminal_exit.signal };
      terminal.revision++;
      onChanged(terminal.id, toolCallId);
    }
  }

  private getOrCreate(id: string, toolCallId: string): StoredTerminal {
    return this.terminals.get(id) ?? this.create(id, toolCallId);
  }

  private create(id: string, toolCallId: string): StoredTerminal {
    const output = new ChunkedText(utf16Units, this.outputLimit);
    const terminal: StoredTerminal = {
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
    return terminal;
  }
}
