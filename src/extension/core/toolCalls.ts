import type { ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';
import { assertNever } from '../../protocol/assertNever';
import { terminalInfoId } from '../../protocol/terminalMeta';
import { jsonEqual, sanitizeContent, sanitizeLocations } from './wireValues';

/**
 * How a card is rendered: a native diff editor, a pseudoterminal, or only the tree. A closed
 * union: every place that depends on it switches over it exhaustively (`cardOpens`, `cardIcon`,
 * and the renderer dispatch `render/cards.ts`), so a new kind breaks compilation where it is shown.
 */
export type CardKind = 'diff' | 'terminal' | 'generic';

export interface ToolCallState {
  readonly id: string;
  title: string;
  /** Programmatic tool name when the agent sends one (e.g. "Edit"); display uses `title`. */
  name: string | undefined;
  kind: ToolKind | undefined;
  status: ToolCallStatus;
  content: ToolCallContent[];
  locations: ToolCallLocation[];
  rawInput?: unknown;
  rawOutput?: unknown;
  /** From a `{type:'terminal'}` content item, `_meta.terminal_info`, or terminal output naming this call. */
  terminalId: string | undefined;
  /** Arrival order within the session (0-based); a repeated `tool_call` keeps its place. */
  readonly order: number;
  /** Bumps on every change to this call (starts at 0). */
  revision: number;
  /** Bumps each time `content` is replaced by different content (call-time snippet → applied hunks). */
  contentRevision: number;
}

export function cardOf(call: ToolCallState): CardKind {
  if (call.content.some((item) => item.type === 'diff')) return 'diff';
  if (call.terminalId !== undefined) return 'terminal';
  return 'generic';
}

/** What a card's main action (a click in the tree or the chat) opens. */
export type CardTarget = 'diff' | 'terminal' | 'tree';

export function cardOpens(card: CardKind): CardTarget {
  switch (card) {
    case 'diff':
      return 'diff';
    case 'terminal':
      return 'terminal';
    case 'generic':
      // Nothing to open beyond what the tree shows: the click reveals its node there.
      return 'tree';
    default:
      return assertNever(card, 'card kind');
  }
}

/** The codicon of a card whose tool kind says nothing of it (`other` or none). */
export function cardIcon(card: CardKind): string {
  switch (card) {
    case 'diff':
      return 'diff';
    case 'terminal':
      return 'terminal';
    case 'generic':
      return 'tools';
    default:
      return assertNever(card, 'card kind');
  }
}

/** What one message did to one call. */
export interface ToolCallApplied {
  readonly call: ToolCallState;
  /** First sight of this id. */
  readonly created: boolean;
  /** Some field changed (a message repeating what the call holds changes nothing). */
  readonly changed: boolean;
  /** `content` was replaced by different content: documents showing it must reload. */
  readonly contentReplaced: boolean;
  /** Tolerated oddities worth a log line (unknown id, malformed items dropped). */
  readonly warnings: readonly string[];
}

/** Shared by every message that dropped nothing (nearly all of them). */
const NO_WARNINGS: readonly string[] = Object.freeze([]);

type Fields = Pick<ToolCallState, 'title' | 'name' | 'kind' | 'status' | 'content' | 'locations' | 'rawInput' | 'rawOutput' | 'terminalId'>;

const FIELD_KEYS = [
  'title',
  'name',
  'kind',
  'status',
  'content',
  'locations',
  'rawInput',
  'rawOutput',
  'terminalId',
] as const satisfies readonly (keyof Fields)[];

/**
 * The tool calls of one session with ACP's semantics: `tool_call` creates (or, for a known id,
 * replaces every field); `tool_call_update` patches only the fields it carries, `content` and
 * `locations` wholesale. In an update `null` means "unchanged", as for an absent field: the
 * schema models these fields as optional values (its doc says so explicitly for `name`).
 *
 * Ids must be non-empty strings; the session checks that before calling.
 */
export class ToolCallStore {
  private readonly byId = new Map<string, ToolCallState>();
  private readonly ordered: ToolCallState[] = [];

  get size(): number {
    return this.ordered.length;
  }

  get(id: string): ToolCallState | undefined {
    return this.byId.get(id);
  }

  /** In arrival order. The same array instance while no call is added: cheap to ask often. */
  all(): readonly ToolCallState[] {
    return this.ordered;
  }

  applyToolCall(message: ToolCall): ToolCallApplied {
    const id = message.toolCallId;
    const content = sanitizeContent(message.content);
    const locations = sanitizeLocations(message.locations);
    const warnings = content.dropped.length + locations.dropped.length === 0 ? NO_WARNINGS : [...content.dropped, ...locations.dropped];
    const existing = this.byId.get(id);
    const fields: Fields = {
      title: typeof message.title === 'string' ? message.title : id,
      name: message.name ?? undefined,
      kind: message.kind ?? undefined,
      status: message.status ?? 'pending',
      content: content.items,
      locations: locations.items,
      rawInput: message.rawInput ?? undefined,
      rawOutput: message.rawOutput ?? undefined,
      // A terminal once shown for a call stays its terminal: its output must not be orphaned.
      terminalId: terminalIdOf(content.items, message._meta) ?? existing?.terminalId,
    };
    if (!existing) return { call: this.create(id, fields), created: true, changed: true, contentReplaced: false, warnings };
    return this.patch(existing, fields, warnings);
  }

  applyUpdate(message: ToolCallUpdate): ToolCallApplied {
    let warnings: string[] | undefined;
    const id = message.toolCallId;
    const fields: Partial<Fields> = {};
    if (typeof message.title === 'string') fields.title = message.title;
    if (typeof message.name === 'string') fields.name = message.name;
    if (message.kind != null) fields.kind = message.kind;
    if (message.status != null) fields.status = message.status;
    if (message.content != null) {
      const content = sanitizeContent(message.content);
      if (content.dropped.length) (warnings ??= []).push(...content.dropped);
      fields.content = content.items;
    }
    if (message.locations != null) {
      const locations = sanitizeLocations(message.locations);
      if (locations.dropped.length) (warnings ??= []).push(...locations.dropped);
      fields.locations = locations.items;
    }
    if (message.rawInput != null) fields.rawInput = message.rawInput;
    if (message.rawOutput != null) fields.rawOutput = message.rawOutput;
    const terminalId = terminalIdOf(fields.content ?? [], message._meta);
    if (terminalId !== undefined) fields.terminalId = terminalId;

    const existing = this.byId.get(id);
    if (!existing) {
      // Tolerated: the agent may have sent the `tool_call` before we listened, or not at all.
      (warnings ??= []).push(`tool_call_update for unknown tool call "${id}": created the call from the update`);
      const call = this.create(id, {
        title: id,
        name: undefined,
        kind: undefined,
        status: 'pending',
        content: [],
        locations: [],
        terminalId: undefined,
        ...fields,
      });
      return { call, created: true, changed: true, contentReplaced: false, warnings: warnings ?? NO_WARNINGS };
    }
    return this.patch(existing, fields, warnings ?? NO_WARNINGS);
  }

  /**
   * Links a terminal to a call that had none, when terminal output or exit names the call before
   * (or without) the terminal being announced. Returns whether the call changed.
   */
  linkTerminal(toolCallId: string, terminalId: string): boolean {
    const call = this.byId.get(toolCallId);
    if (!call || call.terminalId !== undefined) return false;
    call.terminalId = terminalId;
    call.revision++;
    return true;
  }

  private create(id: string, fields: Fields): ToolCallState {
    const call: ToolCallState = { id, ...fields, order: this.ordered.length, revision: 0, contentRevision: 0 };
    this.byId.set(id, call);
    this.ordered.push(call);
    return call;
  }

  private patch(call: ToolCallState, fields: Partial<Fields>, warnings: readonly string[]): ToolCallApplied {
    let changed = false;
    let contentReplaced = false;
    for (const key of FIELD_KEYS) {
      if (!setField(call, fields, key)) continue;
      changed = true;
      if (key === 'content') contentReplaced = true;
    }
    if (changed) call.revision++;
    if (contentReplaced) call.contentRevision++;
    return { call, created: false, changed, contentReplaced, warnings };
  }
}

/** Sets `key` when `fields` carries it (even as undefined: a full replace clears) and it differs. */
function setField<K extends keyof Fields>(call: Fields, fields: Partial<Fields>, key: K): boolean {
  if (!Object.hasOwn(fields, key)) return false;
  const value = fields[key] as Fields[K];
  if (jsonEqual(call[key], value)) return false;
  call[key] = value;
  return true;
}

function terminalIdOf(content: readonly ToolCallContent[], meta: unknown): string | undefined {
  for (const item of content) if (item.type === 'terminal') return item.terminalId;
  return terminalInfoId(meta);
}
