import type { ContentBlock } from '@agentclientprotocol/sdk';

/** Who a message comes from; the agent's thoughts are a stream of their own. */
export type MessageRole = 'user' | 'agent' | 'thought';

/** Text chunks merge into one text part; other blocks (images, resources…) stay as they came. */
export type MessagePart = { readonly type: 'text'; text: string } | { readonly type: 'block'; readonly block: ContentBlock };

export interface MessageEntry {
  readonly type: 'message';
  readonly role: MessageRole;
  /** The agent's `messageId` when it sends one. */
  readonly messageId: string | undefined;
  /** In arrival order. */
  readonly parts: readonly MessagePart[];
  /** All text parts concatenated (what most renderers show). */
  readonly text: string;
}

export interface ToolCallEntry {
  readonly type: 'toolCall';
  readonly id: string;
}

export type TranscriptEntry = MessageEntry | ToolCallEntry;

class Message implements MessageEntry {
  readonly type = 'message';
  readonly parts: MessagePart[] = [];

  constructor(
    readonly role: MessageRole,
    public messageId: string | undefined,
  ) {}

  get text(): string {
    let text = '';
    for (const part of this.parts) if (part.type === 'text') text += part.text;
    return text;
  }

  add(block: ContentBlock): void {
    const last = this.parts[this.parts.length - 1];
    if (block.type !== 'text') this.parts.push({ type: 'block', block });
    else if (last?.type === 'text') last.text += block.text;
    else this.parts.push({ type: 'text', text: block.text });
  }
}

/**
 * The conversation in order: message chunks merge into the message they continue, tool calls sit
 * between them where they arrived.
 */
export class Transcript {
  private readonly list: TranscriptEntry[] = [];

  get entries(): readonly TranscriptEntry[] {
    return this.list;
  }

  /**
   * Appends a chunk to the last entry when it continues it: same role, and not a different
   * `messageId` (ACP: a change of `messageId` starts a new message). A tool call in between
   * always starts a new message, so text after a tool call reads after it.
   */
  appendChunk(role: MessageRole, block: ContentBlock, messageId?: string | null): void {
    const id = messageId ?? undefined;
    const last = this.list[this.list.length - 1];
    let message =
      last instanceof Message && last.role === role && (id === undefined || last.messageId === undefined || last.messageId === id)
        ? last
        : undefined;
    if (!message) {
      message = new Message(role, id);
      this.list.push(message);
    }
    message.messageId ??= id;
    message.add(block);
  }

  /** A new message of `role` even if the last entry has the same role (e.g. a prompt we sent). */
  startMessage(role: MessageRole, blocks: readonly ContentBlock[]): void {
    const message = new Message(role, undefined);
    for (const block of blocks) message.add(block);
    this.list.push(message);
  }

  addToolCall(id: string): void {
    this.list.push({ type: 'toolCall', id });
  }
}
