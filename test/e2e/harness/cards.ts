/**
 * What a client ends up showing, folded from `session/update`s the way a client applies them:
 * `tool_call_update`s patch (content and locations replace wholesale), display-terminal `_meta`
 * appends output, message chunks concatenate. Live and replayed sessions are compared on this.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { readTerminalMeta } from '../../../src/protocol/terminalMeta';

export interface Card {
  toolCallId: string;
  title?: string;
  kind?: acp.ToolKind;
  status?: acp.ToolCallStatus;
  content: acp.ToolCallContent[];
  locations: acp.ToolCallLocation[];
  rawInput?: unknown;
  terminal?: { id: string; cwd?: string; output: string; chunks: number; exit?: { exit_code: number | null; signal: string | null } };
}

export interface Transcript {
  cards: Card[];
  agentText: string;
  thoughtText: string;
  userText: string;
  plan?: acp.PlanEntry[];
}

export function fold(updates: acp.SessionUpdate[]): Transcript {
  const cards = new Map<string, Card>();
  const out: Transcript = { cards: [], agentText: '', thoughtText: '', userText: '' };
  for (const update of updates) {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') out.agentText += update.content.text;
        break;
      case 'agent_thought_chunk':
        if (update.content.type === 'text') out.thoughtText += update.content.text;
        break;
      case 'user_message_chunk':
        if (update.content.type === 'text') out.userText += update.content.text;
        break;
      case 'plan':
        out.plan = update.entries;
        break;
      case 'tool_call': {
        const card: Card = { toolCallId: update.toolCallId, title: update.title, content: update.content ?? [], locations: update.locations ?? [] };
        if (update.kind !== undefined) card.kind = update.kind;
        if (update.status !== undefined) card.status = update.status;
        if (update.rawInput !== undefined) card.rawInput = update.rawInput;
        cards.set(update.toolCallId, card);
        applyTerminalMeta(card, update._meta);
        break;
      }
      case 'tool_call_update': {
        const card = cards.get(update.toolCallId);
        if (card === undefined) throw new Error(`update for unknown tool call ${update.toolCallId}`);
        if (update.title != null) card.title = update.title;
        if (update.kind != null) card.kind = update.kind;
        if (update.status != null) card.status = update.status;
        if (update.content != null) card.content = update.content;
        if (update.locations != null) card.locations = update.locations;
        if (update.rawInput !== undefined) card.rawInput = update.rawInput;
        applyTerminalMeta(card, update._meta);
        break;
      }
      case 'available_commands_update':
      case 'current_mode_update':
      case 'config_option_update':
      case 'session_info_update':
      case 'usage_update':
      case 'notice':
      case 'compaction_update':
      case 'compaction_summary_chunk':
        break;
    }
  }
  out.cards = [...cards.values()];
  return out;
}

function applyTerminalMeta(card: Card, meta: unknown): void {
  const { terminal_info: info, terminal_output: output, terminal_exit: exit } = readTerminalMeta(meta);
  if (info) card.terminal = { id: info.terminal_id, ...(info.cwd !== undefined ? { cwd: info.cwd } : {}), output: '', chunks: 0 };
  if (output) {
    card.terminal ??= { id: output.terminal_id, output: '', chunks: 0 };
    card.terminal.output += output.data;
    card.terminal.chunks++;
  }
  if (exit) {
    card.terminal ??= { id: exit.terminal_id, output: '', chunks: 0 };
    card.terminal.exit = { exit_code: exit.exit_code, signal: exit.signal };
  }
}

/** A card as compared between live and replay: the chunking of terminal output does not matter. */
export function comparable(card: Card): Omit<Card, 'terminal'> & { terminal?: Omit<NonNullable<Card['terminal']>, 'chunks'> } {
  if (card.terminal === undefined) return card;
  const { chunks: _chunks, ...terminal } = card.terminal;
  return { ...card, terminal };
}

/** The text of a card's content items (text blocks only). */
export function cardText(card: Card): string {
  return card.content.map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : '')).join('\n');
}

export function diffs(card: Card): Extract<acp.ToolCallContent, { type: 'diff' }>[] {
  return card.content.filter((c): c is Extract<acp.ToolCallContent, { type: 'diff' }> => c.type === 'diff');
}
