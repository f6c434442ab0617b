import type { ContentBlock } from '@agentclientprotocol/sdk';
import { ChunkedText, utf16Units } from '../../base/textChunks';
import type { CompactionEntry } from './compactions';
import type { NoticeEntry } from './notices';
import type { PlanCardEntry } from './plans';
import type { SubagentEntry } from './subagents';

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

/** What else happens in a conversation, where it happened: a plan, a compaction, a notice, a subagent. */
export type EventEntry = PlanCardEntry | CompactionEntry | NoticeEntry | SubagentEntry;

export type TranscriptEntry = MessageEntry | ToolCallEntry | EventEntry;

/** A text run as offsets into the message's text, or a block as it came. */
type Segment = { readonly type: 'text'; readonly start: number; end: number } | { readonly type: 'block'; readonly block: ContentBlock };

/**
 * Text up to this many UTF-16 units is kept as one plain string; past it, as chunks. Most messages
 * of a turn are short (a line between two tool calls) and need no chunk bookkeeping (a
 * `ChunkedText`, its array and chunk records: ~150 bytes each, kept for the whole session); a
 * streamed answer passes it after a few chunks, and from then on a renderer reads only what is new.
 * `ChunkedText` merges appends into one chunk below about the same size, so a short message was
 * one string there too.
 */
const PLAIN_TEXT_MAX = 1024;

class Message implements MessageEntry {
  readonly type = 'message';
  /**
   * The runs and blocks in arrival order, built at the first non-text block: until then the
   * message is at most one text run (`hasText`), covering all of its text, and needs no list.
   * Created as a literal (a `push` onto `[]` reserves 17 slots).
   */
  private segments: Segment[] | undefined;
  /** A text run arrived before any block (the implicit first segment while `segments` is unset). */
  private hasText = false;
  /** The text while short (see `PLAIN_TEXT_MAX`); '' once `chunkedText` holds it. */
  private plainText = '';
  /**
   * Every text run's text in order, as chunks, once the text has grown past `PLAIN_TEXT_MAX`: a
   * streamed answer grows by thousands of small chunks, and a renderer reads only what is new
   * (`textFrom`) instead of the whole text per flush.
   */
  private chunkedText: ChunkedText | undefined;
  private blockTotal = 0;

  constructor(
    readonly role: MessageRole,
    public messageId: string | undefined,
  ) {}

  /** Built when asked (rarely: the text is kept once). */
  get parts(): readonly MessagePart[] {
    return this.allSegments().map((s) => (s.type === 'block' ? { type: 'block', block: s.block } : { type: 'text', text: this.textFrom(s.start).slice(0, s.end - s.start) }));
  }

  get blocks(): readonly ContentBlock[] {
    return (this.segments ?? []).flatMap((s) => (s.type === 'block' ? [s.block] : []));
  }

  get text(): string {
    return this.chunkedText ? this.chunkedText.text : this.plainText;
  }

  get textLength(): number {
    return this.chunkedText ? this.chunkedText.length : this.plainText.length;
  }

  get blockCount(): number {
    return this.blockTotal;
  }

  textFrom(offset: number): string {
    if (this.chunkedText) return this.chunkedText.readFrom(offset).text;
    // As `ChunkedText.readFrom`: a non-finite offset reads from the start, any other is clamped.
    const start = Number.isFinite(offset) ? Math.floor(offset) : 0;
    return start <= 0 ? this.plainText : this.plainText.slice(start);
  }

  add(block: ContentBlock): void {
    if (block.type !== 'text') {
      if (this.segments) this.segments.push({ type: 'block', block });
      else this.segments = this.hasText ? [{ type: 'text', start: 0, end: this.textLength }, { type: 'block', block }] : [{ type: 'block', block }];
      this.blockTotal++;
      return;
    }
    const start = this.textLength;
    this.appendText(block.text);
    if (!this.segments) {
      this.hasText = true;
      return;
    }
    const last = this.segments[this.segments.length - 1];
    if (last.type === 'text') last.end = this.textLength;
    else this.segments.push({ type: 'text', start, end: this.textLength });
  }

  private appendText(text: string): void {
    if (this.chunkedText) {
      this.chunkedText.append(text);
    } else if (this.plainText.length + text.length <= PLAIN_TEXT_MAX) {
      this.plainText += text;
    } else {
      this.chunkedText = new ChunkedText(utf16Units, Infinity);
      this.chunkedText.append(this.plainText);
      this.chunkedText.append(text);
      this.plainText = '';
    }
  }

  private allSegments(): readonly Segment[] {
    if (this.segments) return this.segments;
    return this.hasText ? [{ type: 'text', start: 0, end: this.textLength }] : [];
  }
}

/**
 * The conversation in order: message chunks merge into the message they continue, tool calls sit
 * between them where they arrived.
 */
export class Transcript {
  private readonly list: TranscriptEntry[] = [];
  private userCount = 0;

  get entries(): readonly TranscriptEntry[] {
    return this.list;
  }

  /** How many user messages there are (prompts sent, and those a `session/load` replayed). */
  get userMessages(): number {
    return this.userCount;
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
      this.push(message);
    }
    message.messageId ??= id;
    message.add(block);
  }

  /** A new message of `role` even if the last entry has the same role (e.g. a prompt we sent). */
  startMessage(role: MessageRole, blocks: readonly ContentBlock[]): void {
    const message = new Message(role, undefined);
    for (const block of blocks) message.add(block);
    this.push(message);
  }

  addToolCall(id: string): void {
    this.list.push({ type: 'toolCall', id });
  }

  /** An event where it happens; text after it starts a new message, as after a tool call. */
  addEvent(entry: EventEntry): void {
    this.list.push(entry);
  }

  /** Whether this is the newest entry. */
  isLast(entry: TranscriptEntry): boolean {
    return this.list[this.list.length - 1] === entry;
  }

  private push(message: Message): void {
    if (message.role === 'user') this.userCount++;
    this.list.push(message);
  }
}
