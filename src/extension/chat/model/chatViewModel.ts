/**
 * What the Chat view shows of a session's transcript (pure): chat items, sent as deltas. Its
 * small whole-replaced status (mode, plan, questions, usage…) is `chatStatus.ts`.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk';
import {
  MAX_IMAGE_BYTES,
  type ChatChange,
  type ChatImage,
  type ChatItem,
  type ChatToolItem,
  type ChatToolTarget,
} from '../../../protocol/chat';
import type { SessionState } from '../../session/model/sessionState';
import { kindIcon } from '../../cards/tree/model/treeModel';
import { cardOf, cardOpens, type ToolCallState } from '../../session/model/toolCalls';
import type { EventEntry, MessageEntry, ToolCallEntry, TranscriptEntry } from '../../session/model/transcript';
import { eventBytes, eventItem, eventRevision, isEventEntry, type SubagentContext } from './chatEvents';
import { subagentBytes, type SubagentLookup } from './chatSubagents';

export interface ChatViewDeps {
  /** The call's title with paths relative to the workspace. */
  callTitle(call: ToolCallState): string;
  /**
   * What the action log says of a turn (by its user message's index): a summary of its changes,
   * or undefined when neither it nor a later turn changed files (nothing to restore).
   */
  turnChanges?(turn: number): string | undefined;
  /** A file's path as a card names it (relative inside the workspace); default: as it is. */
  displayPath?(path: string): string;
  /** The child sessions, for the subagents' blocks (without: a block shows only what the parent knows). */
  subagents?: SubagentLookup;
}

export function messageItem(entry: MessageEntry, turn?: { turn: number; changes?: string }): ChatItem {
  const blocks = entry.blocks;
  const images = imagesOf(blocks);
  // A shown image needs no label chip; one too large to show keeps its label.
  const attachments = blocks.filter((b) => !(b.type === 'image' && shownImage(b))).map(blockLabel);
  return { kind: 'message', role: entry.role, text: entry.text, attachments, ...(images.length ? { images } : {}), ...(turn ?? {}) };
}

/** At most this many images per item are sent to the webview. */
const MAX_IMAGES_PER_ITEM = 8;

function shownImage(block: ContentBlock): block is Extract<ContentBlock, { type: 'image' }> {
  return block.type === 'image' && /^image\/(png|jpeg|gif|webp)$/.test(block.mimeType) && typeof block.data === 'string' && (block.data.length * 3) / 4 <= MAX_IMAGE_BYTES;
}

/** The images of some blocks that the chat shows: known raster types within the size cap (base64, never a URL). */
export function imagesOf(blocks: readonly ContentBlock[]): ChatImage[] {
  return blocks
    .filter(shownImage)
    .slice(0, MAX_IMAGES_PER_ITEM)
    .map((b) => ({ mimeType: b.mimeType, data: b.data }));
}

export function toolItem(call: ToolCallState, title: string): ChatToolItem {
  const card = cardOf(call);
  const opens: ChatToolTarget = cardOpens(card);
  // Most calls carry no image: no arrays built for them (this runs for every row of a storm).
  const images = call.content.some((c) => c.type === 'content' && c.content.type === 'image') ? imagesOf(call.content.flatMap((c) => (c.type === 'content' ? [c.content] : []))) : [];
  return {
    ...(images.length ? { images } : {}),
    kind: 'toolCall',
    toolCallId: call.id,
    title,
    icon: kindIcon(call.kind, card),
    status: call.status,
    ...(opens === 'tree' ? {} : { opens }),
  };
}

/** A short label for a non-text block of a message (an attached file, an image…). */
export function blockLabel(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return 'text';
    case 'resource_link':
      return block.name || baseName(block.uri);
    case 'resource':
      return baseName(block.resource.uri);
    case 'image':
      return 'image';
    case 'audio':
      return 'audio';
  }
}

function baseName(uri: string): string {
  const path = uri.split(/[?#]/, 1)[0] ?? uri;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || uri;
}

export interface ChatPatch {
  /**
   * The list's length after the patch: what the webview has once it applied it. Short of the
   * transcript's length when the patch was cut (see `PatchOptions.stop`).
   */
  readonly length: number;
  readonly changed: ChatChange[];
  /** Cut short: some changes wait for the next patch (see `PatchOptions.stop`). */
  readonly more?: true;
}

export interface PatchOptions {
  /**
   * Asked after each item looked at, with what it adds to the message (undefined: nothing): true
   * cuts the patch (or reset) there and leaves the rest to the next patch, so a storm of new rows,
   * or a long session becoming the one shown, is sent over several event-loop turns and in
   * messages of bounded size instead of in one long block.
   */
  stop?(built: ChatChange | undefined): boolean;
}

/** The first part of a reset: the oldest items; `more` when the rest follows in patches. */
export interface ChatReset {
  readonly items: ChatItem[];
  readonly more?: true;
}

/**
 * About how many bytes a change adds to a posted message, packed as it travels (`packChanges`: its
 * JSON, give or take the escapes and the index of a run's first item).
 */
export function changeBytes(change: ChatChange | undefined): number {
  if (!change) return 0;
  if ('append' in change) return change.append.length + 24;
  const item = change.item;
  if (item.kind === 'plan' || item.kind === 'compaction' || item.kind === 'notice') return eventBytes(item);
  if (item.kind === 'subagent') return subagentBytes(item);
  if (item.kind === 'message') return item.text.length + 64 + item.attachments.reduce((n, a) => n + a.length + 3, 0) + (item.images?.reduce((n, i) => n + i.data.length, 0) ?? 0);
  if (item.images) return item.title.length + item.toolCallId.length + 96 + item.images.reduce((n, i) => n + i.data.length, 0);
  // A packed row: `["id","title","icon","status"],` (and `,"opens"`).
  return item.toolCallId.length + item.title.length + item.icon.length + item.status.length + (item.opens ? item.opens.length + 3 : 0) + 12;
}

/**
 * While a turn runs, the user messages' change summaries (read from the action log, which walks
 * every change of the session) are refreshed this often at most; when the turn ends, at once.
 */
export const TURNS_INTERVAL_MS = 250;

/** How long a refresh of the turn summaries asked for now waits (0: now). */
export function turnsRefreshWait(input: { now: number; last: number; busy: boolean }): number {
  if (!input.busy) return 0;
  return Math.max(0, TURNS_INTERVAL_MS - (input.now - input.last));
}

/** What the webview was last sent of a message: its shape and how much of its text. */
interface SentMessage {
  readonly type: 'message';
  readonly shape: string;
  readonly textLength: number;
}

/**
 * What the webview was last sent of a tool call: the item, and the call's revision it was built
 * from (an unchanged revision needs no look); the display title with what it was computed from.
 */
interface SentTool {
  readonly type: 'toolCall';
  readonly item: ChatToolItem;
  readonly call: ToolCallState | undefined;
  readonly revision: number;
  readonly title: DisplayTitle | undefined;
}

/** A call's display title and its inputs (the title and paths can change with an update, rarely do). */
interface DisplayTitle {
  readonly title: string;
  readonly content: readonly unknown[];
  readonly locations: readonly unknown[];
  readonly text: string;
}

/** What the webview was last sent of a plan, a compaction or a notice: its record's revision then. */
interface SentEvent {
  readonly type: 'event';
  readonly entry: EventEntry;
  readonly revision: number;
}

type Sent = SentMessage | SentTool | SentEvent;

/**
 * A message's shape: everything but its text. Blocks never change once added, so their count
 * stands for them; a user message's turn summary can change.
 */
function messageShape(entry: MessageEntry, turn: { turn: number; changes?: string } | undefined): string {
  return `${entry.role}|${entry.blockCount}|${turn ? `${turn.turn}|${turn.changes ?? '-'}` : ''}`;
}

function sameImages(a: readonly ChatImage[] | undefined, b: readonly ChatImage[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((image, i) => image.mimeType === b[i]?.mimeType && image.data === b[i]?.data);
}

/** Whether two tool rows show the same (every field of `ChatToolItem`). */
function sameToolItem(a: ChatToolItem, b: ChatToolItem): boolean {
  return (
    a.toolCallId === b.toolCallId &&
    a.title === b.title &&
    a.icon === b.icon &&
    a.status === b.status &&
    a.opens === b.opens &&
    sameImages(a.images, b.images)
  );
}

/**
 * The transcript of one session as chat items, remembering what the webview has, so each flush
 * sends only what changed. Only the tail (the message being streamed, entries added since) and the
 * tool calls a change names are rebuilt: a 2,000-message session costs the same per flush as a
 * short one. A tool call whose revision did not move is not looked at again, and its display
 * title is computed again only when its title or paths changed.
 */
export class ChatTranscript {
  /** What was last sent of each item, by index. */
  private sent: Sent[] = [];
  private readonly toolIndex = new Map<string, number>();
  /** Transcript index → turn, for user messages (their order among user messages). */
  private readonly turnIndex = new Map<number, number>();
  /** The highest index in `turnIndex` (-1: none). */
  private lastUserIndex = -1;
  /** Items a cut patch left for the next one (see `PatchOptions.stop`). */
  private readonly leftover = new Set<number>();
  /** Where the events are (a handful): each patch looks whether one changed in place. */
  private readonly eventIndices = new Set<number>();

  private readonly events: SubagentContext;

  constructor(
    readonly state: SessionState,
    private readonly deps: ChatViewDeps,
  ) {
    this.events = { parent: state, lookup: deps.subagents };
  }

  /** Every item (the webview starts over). */
  all(): ChatItem[] {
    return this.reset().items;
  }

  /**
   * The webview starts over: the items from the first, until `options.stop` says so; the rest
   * comes with the next `patch` (which always continues from the last item sent).
   */
  reset(options: PatchOptions = {}): ChatReset {
    const entries = this.state.transcript;
    this.sent = [];
    this.toolIndex.clear();
    this.turnIndex.clear();
    this.lastUserIndex = -1;
    this.leftover.clear();
    this.eventIndices.clear();
    const items: ChatItem[] = [];
    for (let index = 0; index < entries.length; index++) {
      const item = this.build(entries[index] as TranscriptEntry, index);
      items.push(item);
      if (index < entries.length - 1 && options.stop?.({ index, item })) return { items, more: true };
    }
    return { items };
  }

  /** How many items the webview holds: every entry built so far (a cut patch leaves some to come). */
  private get sentLength(): number {
    return Math.min(this.state.transcript.length, this.sent.length);
  }

  /** The user messages whose turn summary changed (the action log changed). */
  refreshTurns(): ChatPatch {
    const entries = this.state.transcript;
    const changed: ChatChange[] = [];
    for (const index of this.turnIndex.keys()) {
      const entry = entries[index];
      if (!entry) continue;
      const change = this.change(entry, index);
      if (change) changed.push(change);
    }
    return { length: this.sentLength, changed: changed.sort((a, b) => a.index - b.index) };
  }

  /** The items changed since the last `all` or `patch`; `toolCalls`: ids the session says changed. */
  patch(toolCalls: Iterable<string>, options: PatchOptions = {}): ChatPatch {
    const entries = this.state.transcript;
    const indices = new Set<number>(this.leftover);
    this.leftover.clear();
    for (const index of this.eventIndices) indices.add(index);
    for (let i = Math.max(0, this.sent.length - 1); i < entries.length; i++) indices.add(i);
    for (const id of toolCalls) {
      const index = this.toolIndex.get(id);
      if (index !== undefined) indices.add(index);
    }
    const changed: ChatChange[] = [];
    const sorted = [...indices].sort((a, b) => a - b);
    for (let k = 0; k < sorted.length; k++) {
      const index = sorted[k] as number;
      const entry = entries[index];
      if (!entry) continue;
      const change = this.change(entry, index);
      if (change) changed.push(change);
      if (k < sorted.length - 1 && options.stop?.(change)) {
        // Entries past the last one built come with the tail; earlier rows named here wait in `leftover`.
        for (const rest of sorted.slice(k + 1)) if (rest < this.sent.length) this.leftover.add(rest);
        return { length: this.sentLength, changed, more: true };
      }
    }
    return { length: entries.length, changed };
  }

  /**
   * What to send of an entry that may have changed: nothing, the text a message grew by (the
   * common case while an answer streams: only the new characters, never the whole text again),
   * or the whole item.
   */
  private change(entry: TranscriptEntry, index: number): ChatChange | undefined {
    const before = this.sent[index];
    if (entry.type === 'message') {
      if (before?.type === 'message') {
        const turn = entry.role === 'user' ? this.turnOf(index) : undefined;
        if (before.shape === messageShape(entry, turn) && entry.textLength >= before.textLength) {
          if (entry.textLength === before.textLength) return undefined;
          this.sent[index] = { type: 'message', shape: before.shape, textLength: entry.textLength };
          return { index, append: entry.textFrom(before.textLength) };
        }
      }
      return { index, item: this.build(entry, index) };
    }
    if (isEventEntry(entry)) {
      if (before?.type === 'event' && before.entry === entry && before.revision === eventRevision(entry, this.events)) return undefined;
      return { index, item: this.build(entry, index) };
    }
    if (before?.type === 'toolCall') {
      const call = this.state.toolCall(entry.id);
      if (call && call === before.call && call.revision === before.revision) return undefined;
      const item = this.buildTool(entry, index, before);
      // Nothing the row shows changed (say, only the call's raw output): nothing to send.
      return sameToolItem(item, before.item) ? undefined : { index, item };
    }
    return { index, item: this.build(entry, index) };
  }

  private build(entry: TranscriptEntry, index: number): ChatItem {
    if (entry.type === 'message') {
      const turn = entry.role === 'user' ? this.turnOf(index) : undefined;
      this.sent[index] = { type: 'message', shape: messageShape(entry, turn), textLength: entry.textLength };
      return messageItem(entry, turn);
    }
    if (isEventEntry(entry)) {
      this.eventIndices.add(index);
      this.sent[index] = { type: 'event', entry, revision: eventRevision(entry, this.events) };
      return eventItem(entry, (path) => this.deps.displayPath?.(path) ?? path, this.events);
    }
    return this.buildTool(entry, index, undefined);
  }

  private buildTool(entry: ToolCallEntry, index: number, before: SentTool | undefined): ChatToolItem {
    this.toolIndex.set(entry.id, index);
    const call = this.state.toolCall(entry.id);
    if (!call) {
      const item: ChatToolItem = { kind: 'toolCall', toolCallId: entry.id, title: entry.id, icon: 'tools', status: 'pending' };
      this.sent[index] = { type: 'toolCall', item, call, revision: -1, title: undefined };
      return item;
    }
    const known = before?.call === call ? before.title : undefined;
    const title =
      known && known.title === call.title && known.content === call.content && known.locations === call.locations
        ? known
        : { title: call.title, content: call.content, locations: call.locations, text: this.deps.callTitle(call) };
    const item = toolItem(call, title.text);
    this.sent[index] = { type: 'toolCall', item, call, revision: call.revision, title };
    return item;
  }

  /** The turn of the user message at `index` (entries before it were built first), with its changes. */
  private turnOf(index: number): { turn: number; changes?: string } {
    let turn = this.turnIndex.get(index);
    if (turn === undefined) {
      // Entries are built in order, so every user message known so far is before this one: no count.
      turn = index > this.lastUserIndex ? this.turnIndex.size : [...this.turnIndex.keys()].filter((i) => i < index).length;
      this.turnIndex.set(index, turn);
      this.lastUserIndex = Math.max(this.lastUserIndex, index);
    }
    const changes = this.deps.turnChanges?.(turn);
    return changes === undefined ? { turn } : { turn, changes };
  }
}
