/**
 * What the Chat view shows of a session (pure): the transcript as chat items, sent as deltas, and
 * the session's small whole-replaced status (mode, plan, questions, usage…).
 */
import type { ContentBlock, SessionConfigOption } from '@agentclientprotocol/sdk';
import {
  MAX_IMAGE_BYTES,
  type ChatActivity,
  type ChatChange,
  type ChatChoice,
  type ChatElicitation,
  type ChatImage,
  type ChatItem,
  type ChatPermission,
  type ChatSelect,
  type ChatSessionEntry,
  type ChatStatus,
  type ChatToolTarget,
} from '../../protocol/chat';
import type { PermissionQuestion } from './permissionRequests';
import type { SessionState, SessionUsage } from './session';
import { kindIcon, statusLabel } from './treeModel';
import { cardOf, cardOpens, type ToolCallState } from './toolCalls';
import type { MessageEntry, TranscriptEntry } from './transcript';

export interface ChatViewDeps {
  /** The call's title with paths relative to the workspace. */
  callTitle(call: ToolCallState): string;
  /**
   * What the action log says of a turn (by its user message's index): a summary of its changes,
   * or undefined when neither it nor a later turn changed files (nothing to restore).
   */
  turnChanges?(turn: number): string | undefined;
}

export function messageItem(entry: MessageEntry, turn?: { turn: number; changes: string }): ChatItem {
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

export function toolItem(call: ToolCallState, title: string): ChatItem {
  const card = cardOf(call);
  const opens: ChatToolTarget = cardOpens(card);
  const images = imagesOf(call.content.flatMap((c) => (c.type === 'content' ? [c.content] : [])));
  return {
    ...(images.length ? { images } : {}),
    kind: 'toolCall',
    toolCallId: call.id,
    title,
    icon: kindIcon(call.kind, card),
    status: call.status,
    statusLabel: statusLabel(call.status),
    opens,
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
  readonly length: number;
  readonly changed: ChatChange[];
}

/** What the webview was last sent of an item: a tool call's JSON, or a message's shape and text length. */
type Sent = string | { readonly shape: string; readonly textLength: number };

/**
 * A message's shape: everything but its text. Blocks never change once added, so their count
 * stands for them; a user message's turn summary can change.
 */
function messageShape(entry: MessageEntry, turn: { turn: number; changes: string } | undefined): string {
  return `${entry.role}|${entry.blockCount}|${turn ? `${turn.turn}|${turn.changes}` : ''}`;
}

/**
 * The transcript of one session as chat items, remembering what the webview has, so each flush
 * sends only what changed. Only the tail (the message being streamed, entries added since) and the
 * tool calls a change names are rebuilt: a 2,000-message session costs the same per flush as a
 * short one.
 */
export class ChatTranscript {
  /** What was last sent of each item, by index. */
  private sent: Sent[] = [];
  private readonly toolIndex = new Map<string, number>();
  /** Transcript index → turn, for user messages (their order among user messages). */
  private readonly turnIndex = new Map<number, number>();

  constructor(
    readonly state: SessionState,
    private readonly deps: ChatViewDeps,
  ) {}

  /** Every item (the webview starts over). */
  all(): ChatItem[] {
    const entries = this.state.transcript;
    this.sent = [];
    this.toolIndex.clear();
    this.turnIndex.clear();
    return entries.map((entry, index) => this.build(entry, index));
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
    return { length: entries.length, changed: changed.sort((a, b) => a.index - b.index) };
  }

  /** The items changed since the last `all` or `patch`; `toolCalls`: ids the session says changed. */
  patch(toolCalls: Iterable<string>): ChatPatch {
    const entries = this.state.transcript;
    const indices = new Set<number>();
    for (let i = Math.max(0, this.sent.length - 1); i < entries.length; i++) indices.add(i);
    for (const id of toolCalls) {
      const index = this.toolIndex.get(id);
      if (index !== undefined) indices.add(index);
    }
    const changed: ChatChange[] = [];
    for (const index of [...indices].sort((a, b) => a - b)) {
      const entry = entries[index];
      if (!entry) continue;
      const change = this.change(entry, index);
      if (change) changed.push(change);
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
    if (entry.type === 'message' && typeof before === 'object') {
      const turn = entry.role === 'user' ? this.turnOf(index) : undefined;
      if (before.shape === messageShape(entry, turn) && entry.textLength >= before.textLength) {
        if (entry.textLength === before.textLength) return undefined;
        this.sent[index] = { shape: before.shape, textLength: entry.textLength };
        return { index, append: entry.textFrom(before.textLength) };
      }
    }
    const item = this.build(entry, index);
    return this.sent[index] === before ? undefined : { index, item };
  }

  private build(entry: TranscriptEntry, index: number): ChatItem {
    let item: ChatItem;
    if (entry.type === 'message') {
      const turn = entry.role === 'user' ? this.turnOf(index) : undefined;
      item = messageItem(entry, turn);
      this.sent[index] = { shape: messageShape(entry, turn), textLength: entry.textLength };
      return item;
    } else {
      this.toolIndex.set(entry.id, index);
      const call = this.state.toolCall(entry.id);
      item = call
        ? toolItem(call, this.deps.callTitle(call))
        : { kind: 'toolCall', toolCallId: entry.id, title: entry.id, icon: 'tools', status: 'pending', statusLabel: 'pending', opens: 'tree' };
    }
    this.sent[index] = JSON.stringify(item);
    return item;
  }

  /** The turn of the user message at `index` (entries before it were built first), with its changes. */
  private turnOf(index: number): { turn: number; changes: string } | undefined {
    let turn = this.turnIndex.get(index);
    if (turn === undefined) {
      turn = [...this.turnIndex.keys()].filter((i) => i < index).length;
      this.turnIndex.set(index, turn);
    }
    const changes = this.deps.turnChanges?.(turn);
    return changes === undefined ? undefined : { turn, changes };
  }
}

export interface ChatStatusInput {
  readonly state: SessionState | undefined;
  readonly agentName: string | undefined;
  readonly busy: boolean;
  /** Open questions of this session. */
  readonly questions: readonly PermissionQuestion[];
  readonly questionTitle: (question: PermissionQuestion) => string;
  /** The label of a question's show-more button (the editor's Compare), if it has one. */
  readonly questionInspect?: (question: PermissionQuestion) => string | undefined;
  readonly attachments: readonly ChatChoice[];
  /** Open forms of this session. */
  readonly elicitations?: readonly ChatElicitation[];
  readonly acceptsImages?: boolean;
  /** Every open session, for the header's switcher. */
  readonly sessions?: readonly ChatSessionEntry[];
}

export function activityOf(input: { hasSession: boolean; busy: boolean; waiting: boolean }): ChatActivity {
  if (!input.hasSession) return 'none';
  if (input.waiting) return 'waiting';
  return input.busy ? 'working' : 'idle';
}

export function chatStatus(input: ChatStatusInput): ChatStatus {
  const { state } = input;
  const configOptions = (state?.configOptions ?? []).flatMap(selectOf);
  const permissions: ChatPermission[] = input.questions.map((q) => ({
    questionId: q.id,
    toolCallId: q.toolCall.toolCallId,
    title: input.questionTitle(q),
    options: q.options.map((o) => ({ name: o.name, kind: o.kind })),
    inspect: input.questionInspect?.(q) ?? null,
  }));
  return {
    agentName: input.agentName ?? null,
    sessionId: state?.sessionId ?? null,
    title: state?.title ?? null,
    activity: activityOf({ hasSession: !!state, busy: input.busy, waiting: permissions.length > 0 || (input.elicitations?.length ?? 0) > 0 }),
    // The spec: clients use configOptions when present. A mode option supersedes the legacy modes
    // (Claude's and Codex's adapters send both, which showed two mode pickers).
    modes: configOptions.some((o) => o.category === 'mode') ? [] : (state?.availableModes ?? []).map((m) => ({ id: m.id, name: m.name })),
    currentModeId: state?.currentModeId ?? null,
    configOptions,
    commands: (state?.availableCommands ?? []).map((c) => ({ name: c.name, description: c.description, hint: c.input?.hint ?? null })),
    plan: (state?.plan ?? []).map((e) => ({ content: e.content, status: e.status })),
    permissions,
    notices: (state?.notices ?? []).map((n) => ({ severity: n.severity, title: n.title, description: n.description ?? null })),
    usage: state?.usage ? usageLabel(state.usage) : null,
    attachments: input.attachments,
    elicitations: input.elicitations ?? [],
    acceptsImages: input.acceptsImages ?? false,
    sessions: input.sessions ?? [],
  };
}

function selectOf(option: SessionConfigOption): ChatSelect[] {
  if (option.type !== 'select') return [];
  const choices = option.options.flatMap((o) => ('group' in o ? o.options : [o])).map((o) => ({ id: o.value, name: o.name }));
  return [
    {
      id: option.id,
      name: option.name,
      description: option.description ?? null,
      category: option.category ?? null,
      currentValue: option.currentValue,
      options: choices,
    },
  ];
}

export function usageLabel(usage: SessionUsage): string {
  const tokens = `${compact(usage.used)} / ${compact(usage.size)} tokens`;
  return usage.cost ? `${tokens} · ${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : tokens;
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(n);
}
