import type { AvailableCommand, ContentBlock, StopReason } from '@agentclientprotocol/sdk';
import type { McpAccess } from '../mcp/hub';
import type { SessionEvent } from '../sessionEvents';
import type { ToolOutcome } from '../tools/types';

/** What a brain can do during one prompt turn. */
export interface TurnContext {
  readonly cwd: string;
  /** Aborted by `session/cancel`: stop soon, and answer `cancelled`. */
  readonly signal: AbortSignal;
  /** The session's events before this turn: a model's conversation history. */
  readonly history: readonly SessionEvent[];
  /** The session's MCP servers (started on first use). */
  readonly mcp: McpAccess;
  /** Streams text to the user (`agent_message_chunk`). */
  say(text: string): void;
  /** Streams reasoning (`agent_thought_chunk`). */
  think(text: string): void;
  /**
   * Runs a tool the way every call runs: card, permission, execution, result card, log. Invalid
   * arguments or an unknown tool come back as an error outcome without a card.
   */
  runTool(name: string, args: unknown): Promise<ToolOutcome & { toolCallId?: string }>;
}

export interface Brain {
  /** Slash commands to advertise (`available_commands_update`), if the brain has any. */
  readonly availableCommands?: AvailableCommand[];
  runTurn(turn: TurnContext, prompt: ContentBlock[]): Promise<StopReason>;
}
