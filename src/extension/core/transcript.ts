import type { ContentBlock } from '@agentclientprotocol/sdk';
import { ChunkedText, utf16Units } from './textChunks';

/** Who a message comes from; the agent's thoughts are a stream of their own. */
export type MessageRole = 'user' | 'agent' | 'thought';

/** Text chunks merge into one text part; other blocks (images, resources…) stay as they came. */
export type MessagePart = { readonly type: 'text'; readonly text: string } | { readonly type: 'block'; readonly block: ContentBlock };

export interface MessageEntry {
  readonly type: 'message';
  readonly role: MessageRole;
  /** The agent's `messageId` when it sends one. */
  readonly messageId: string | undefined;
  /** In arrival order. */
  readonly parts: readonly MessagePart[];
  /** The non-text blocks, in arrival order. */
  readonly blocks: readonly ContentBlock[];
  /** All text parts concatenated (what most renderers show). */
  readonly text: string;
  /** `text.length`, without joining anything. */
  readonly textLength: number;
  /**
   * The text from `offset` on (UTF-16 units), without joining the whole text: a renderer that sent
   * the first `offset` characters sends only the rest. Text only ever grows at the end.
   */
  textFrom(offset: number): string;
  /** How many non-text blocks the message has: blocks never change once added. */
  readonly blockCount: number;
}

export interface ToolCallEntry {
  readonly type: 'toolCall';
  readonly id: string;
}

export type TranscriptEntry = MessageEntry | ToolCallEntry;

/** A text run as offsets into the message's text, or a block as it came. */
type Segment = { readonly type: 'text'; readonly start: number; end: number } | { readonly type: 'block'; readonly block: ContentBlock };

class Message implements MessageEntry {
  readonly type = 'message';
  /** Usually one text run: created as a one-item literal (a `push` onto `[]` reserves 17 slots). */
  private segments: Segment[] | undefined;
  /**
   * Every text run's text in order, as chunks: a streamed answer grows by thousands of small
   * chunks, and a renderer reads only what is new (`textFrom`) instead of the whole text per flush.
   */
  private readonly allText = new ChunkedText(utf16Units, Infinity);
  private blockTotal = 0;

  constructor(
    readonly role: MessageRole,
    public messageId: string | undefined,
  ) {}

  /** Built when asked (rarely: the text is kept once, in `allText`). */
  get parts(): readonly MessagePart[] {
    return (this.segments ?? []).map((s) => (s.type === 'block' ? { type: 'block', block: s.block } : { type: 'text', text: this.textFrom(s.start).slice(0, s.end - s.start) }));
  }

  get blocks(): readonly ContentBlock[] {
    return (this.segments ?? []).flatMap((s) => (s.type === 'block' ? [s.block] : []));
  }

  get text(): string {
    return this.allText.text;
  }

  get textLength(): number {
    return this.allText.length;
  }

  get blockCount(): number {
    return this.blockTotal;
  }

  textFrom(offset: number): string {
    return this.allText.readFrom(offset).text;
  }

  add(block: ContentBlock): void {
    if (block.type !== 'text') {
      this.addSegment({ type: 'block', block });
      this.blockTotal++;
      return;
    }
    const start = this.allText.length;
    this.allText.append(block.text);
    const last = this.segments?.[this.segments.length - 1];
    if (last?.type === 'text') last.end = this.allText.length;
    else this.addSegment({ type: 'text', start, end: this.allText.length });
  }

  private addSegment(segment: Segment): void {
    if (this.segments) this.segments.push(segment);
    else this.segments = [segment];
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
