/**
 * Edit & resend (pure): how a conversation continues from an earlier user message with edited
 * text. With an agent that forks a session at a message (`session/fork` with `messageId`), the
 * fork is cut at the agent's last message before the edited one; with any other agent, a new
 * session gets the conversation up to that message as context with the edited text. The old
 * session stays as it was.
 */
import type { ContentBlock, ToolCallContent, SessionUpdate } from '@agentclientprotocol/sdk';
import type { MessageEntry, TranscriptEntry } from './transcript';
import type { ToolCallState } from './toolCalls';

/** What an agent says it can do with `session/fork` (`sessionCapabilities.fork`). */
export type ForkSupport = 'none' | 'whole' | 'atMessage';

/**
 * `sessionCapabilities.fork` read: absent is no fork; `{atMessageId: true}` (the draft
 * "fork at a message" RFD) cuts at a message; any other object forks whole sessions only.
 */
export function forkSupportOf(sessionCapabilities: unknown): ForkSupport {
  const fork = (sessionCapabilities as { fork?: unknown } | null | undefined)?.fork;
  if (fork === undefined || fork === null || typeof fork !== 'object') return 'none';
  return (fork as { atMessageId?: unknown }).atMessageId === true ? 'atMessage' : 'whole';
}

/** How an edit of turn `turn` goes on. */
export type ResendRoute =
  /** `session/fork` with `messageId`: the agent keeps everything up to and including that message. */
  | { readonly kind: 'fork'; readonly messageId: string }
  /** A new session whose first prompt carries the conversation before the edited message. */
  | { readonly kind: 'context'; readonly reason: string }
  /** The first message edited: nothing came before it, a new session gets the text alone. */
  | { readonly kind: 'fresh' };

export function resendRoute(input: { readonly turn: number; readonly fork: ForkSupport; readonly forkPoint: string | undefined; readonly agentName: string }): ResendRoute {
  if (input.turn === 0) return { kind: 'fresh' };
  switch (input.fork) {
    case 'atMessage':
      if (input.forkPoint !== undefined) return { kind: 'fork', messageId: input.forkPoint };
      return { kind: 'context', reason: `${input.agentName} named no message to fork at before prompt ${input.turn + 1}` };
    case 'whole':
      // A whole-session fork keeps the edited message and everything after it: not an edit.
      return { kind: 'context', reason: `${input.agentName} forks whole sessions only, not at a message` };
    case 'none':
      return { kind: 'context', reason: `${input.agentName} does not fork sessions` };
    default:
      return input.fork satisfies never;
  }
}

/** Where the user message of `turn` is in the transcript (-1: there is no such message). */
export function userMessageIndex(entries: readonly TranscriptEntry[], turn: number): number {
  let seen = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i] as TranscriptEntry;
    if (entry.type === 'message' && entry.role === 'user') {
      if (seen === turn) return i;
      seen++;
    }
  }
  return -1;
}

/**
 * The agent message a fork for an edit of `turn` is cut at (inclusive): the agent's last message
 * before the edited one, when it has a `messageId` and no tool call came after it (a cut there
 * would drop that call). Undefined when there is none.
 */
export function forkPointOf(entries: readonly TranscriptEntry[], turn: number): string | undefined {
  const at = userMessageIndex(entries, turn);
  for (let i = at - 1; i >= 0; i--) {
    const entry = entries[i] as TranscriptEntry;
    if (entry.type === 'toolCall') return undefined;
    if (entry.type !== 'message') continue;
    if (entry.role === 'user') return undefined;
    if (entry.role === 'agent') return entry.messageId;
  }
  return undefined;
}

/** Bounds of the context prompt: the newest messages are kept, the oldest left out first. */
export const CONTEXT_MAX_CHARS = 200_000;
/** A single message longer than this is cut in the context (its start kept). */
const MESSAGE_MAX_CHARS = 20_000;

/**
 * The first prompt of a session that continues an earlier one from before its message of
 * `turn`: the conversation up to that message (the user's and the agent's messages, and each
 * tool call as one line), then the edited text. Thoughts are left out. The newest part is kept
 * when it is longer than `maxChars`.
 */
export function contextPrompt(input: {
  readonly entries: readonly TranscriptEntry[];
  readonly turn: number;
  readonly text: string;
  readonly toolCall: (id: string) => Pick<ToolCallState, 'title' | 'name' | 'status'> | undefined;
  readonly maxChars?: number;
}): string {
  const end = userMessageIndex(input.entries, input.turn);
  const parts: string[] = [];
  for (const entry of input.entries.slice(0, end < 0 ? input.entries.length : end)) {
    if (entry.type === 'message') {
      if (entry.role === 'thought') continue;
      const said = messageText(entry);
      if (said) parts.push(`${entry.role === 'user' ? 'User' : 'Agent'}: ${said}`);
    } else if (entry.type === 'toolCall') {
      const call = input.toolCall(entry.id);
      if (call) parts.push(`[Tool call: ${oneLine(call.title || call.name || entry.id)} (${call.status})]`);
    }
  }
  const max = input.maxChars ?? CONTEXT_MAX_CHARS;
  let total = 0;
  let from = parts.length;
  while (from > 0 && total + (parts[from - 1] as string).length + 2 <= max) total += (parts[--from] as string).length + 2;
  const kept = parts.slice(from);
  const left = from > 0 ? [`(${from} earlier ${from === 1 ? 'part' : 'parts'} of the conversation left out)`] : [];
  return [
    'This continues an earlier conversation in this workspace, from before one of my messages, which I have edited. The files are back as they were at that point.',
    '',
    '<earlier-conversation>',
    ...[...left, ...kept].join('\n\n').split('\n'),
    '</earlier-conversation>',
    '',
    'My message now:',
    '',
    input.text,
  ].join('\n');
}

function messageText(entry: MessageEntry): string {
  const text = entry.text.trim();
  const cut = text.length > MESSAGE_MAX_CHARS ? `${text.slice(0, MESSAGE_MAX_CHARS)}… (cut)` : text;
  const named = entry.blocks.map(blockName).filter((n) => n !== undefined);
  return [cut, ...named.map((n) => `[${n}]`)].filter(Boolean).join('\n');
}

function blockName(block: ContentBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return undefined;
    case 'resource_link':
      return `attached: ${block.uri}`;
    case 'resource':
      return `attached: ${block.resource.uri}`;
    case 'image':
      return 'an image';
    case 'audio':
      return 'an audio clip';
    default:
      return block satisfies never;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** How Session History names the two branches: the session edited, and the one that goes on. */
export function branchNotes(turn: number): { readonly before: string; readonly after: string } {
  return { before: '(before edit)', after: `(edit of prompt ${turn + 1})` };
}

/** What a new branch is given of the old one's conversation (up to the edited message) to show. */
export type HistoryStep =
  | { readonly kind: 'prompt'; readonly blocks: readonly ContentBlock[] }
  | { readonly kind: 'update'; readonly update: SessionUpdate };

/**
 * The conversation before the message of `turn` as the steps that rebuild it in another
 * session's state: prompts as prompts, the agent's messages and thoughts as chunks (with their
 * `messageId` only when `keepMessageIds`: a forked session's agent knows them, a new one does not),
 * tool calls as they stand now. Terminal content is left out: its terminals are the old session's.
 * Plans, notices, compactions and subagents stay in the old session.
 */
export function historySteps(input: {
  readonly entries: readonly TranscriptEntry[];
  readonly turn: number;
  readonly toolCall: (id: string) => ToolCallState | undefined;
  readonly keepMessageIds: boolean;
}): HistoryStep[] {
  const end = userMessageIndex(input.entries, input.turn);
  const steps: HistoryStep[] = [];
  for (const entry of input.entries.slice(0, end < 0 ? input.entries.length : end)) {
    if (entry.type === 'message') {
      const blocks = entry.parts.map((p) => (p.type === 'text' ? ({ type: 'text', text: p.text } as const) : p.block));
      if (entry.role === 'user') {
        steps.push({ kind: 'prompt', blocks });
        continue;
      }
      const sessionUpdate = entry.role === 'agent' ? 'agent_message_chunk' : 'agent_thought_chunk';
      const messageId = input.keepMessageIds && entry.messageId !== undefined ? { messageId: entry.messageId } : {};
      for (const content of blocks) steps.push({ kind: 'update', update: { sessionUpdate, content, ...messageId } });
    } else if (entry.type === 'toolCall') {
      const call = input.toolCall(entry.id);
      if (!call) continue;
      const content: ToolCallContent[] = call.content.filter((c) => c.type !== 'terminal');
      steps.push({
        kind: 'update',
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: call.id,
          title: call.title,
          status: call.status,
          content,
          locations: call.locations,
          ...(call.kind ? { kind: call.kind } : {}),
          ...(call.rawInput !== undefined ? { rawInput: call.rawInput } : {}),
          ...(call.rawOutput !== undefined ? { rawOutput: call.rawOutput } : {}),
        },
      });
    }
  }
  return steps;
}
