import type { ToolCall, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';
import { assertNever } from '../../../protocol/assertNever';
import { terminalInfoId } from '../../../protocol/terminalMeta';
import { jsonEqual, sanitizeContent, sanitizeLocations } from './wireValues';

/**
 * How a card is rendered: a native diff editor, a pseudoterminal, or only the tree. A closed
 * union: every place that depends on it switches over it exhaustively (`cardOpens`, `cardIcon`,
 * and the renderer dispatch `cards/cards.ts`), so a new kind breaks compilation where it is shown.
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
  /**
   * The message's own `_meta`, which the call does not keep: what an agent says beyond ACP's
   * fields, read through `agentMeta.ts`. Undefined for a change that came without a message.
   */
  readonly meta: unknown;
}

/** Shared by every message that dropped nothing (nearly all of them). */
const NO_WARNINGS: readonly string[] = Object.freeze([]);
const NO_CONTENT: readonly ToolCallContent[] = Object.freeze([]);

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
    if (!existing) {
      // One literal with every field: a spread of `fields` into the new call cost more than the
      // rest of the message, and every call then shares one shape (monomorphic reads).
      const call: ToolCallState = {
        id,
        title: typeof message.title === 'string' ? message.title : id,
        name: message.name ?? undefined,
        kind: message.kind ?? undefined,
        status: message.status ?? 'pending',
        content: content.items,
        locations: locations.items,
        rawInput: message.rawInput ?? undefined,
        rawOutput: message.rawOutput ?? undefined,
        terminalId: terminalIdOf(content.items, message._meta),
        order: this.ordered.length,
        revision: 0,
        contentRevision: 0,
      };
      this.add(call);
      return { call, created: true, changed: true, contentReplaced: false, warnings, meta: message._meta };
    }
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
      terminalId: terminalIdOf(content.items, message._meta) ?? existing.terminalId,
    };
    return this.patch(existing, fields, warnings, message._meta);
  }

  applyUpdate(message: ToolCallUpdate): ToolCallApplied {
    let warnings: string[] | undefined;
    const id = message.toolCallId;
    // Each field the update carries, else undefined (in an update, null means "unchanged" too).
    const title = typeof message.title === 'string' ? message.title : undefined;
    const name = typeof message.name === 'string' ? message.name : undefined;
    const kind = message.kind ?? undefined;
    const status = message.status ?? undefined;
    let content: ToolCallContent[] | undefined;
    if (message.content != null) {
      const sanitized = sanitizeContent(message.content);
      if (sanitized.dropped.length) (warnings ??= []).push(...sanitized.dropped);
      content = sanitized.items;
    }
    let locations: ToolCallLocation[] | undefined;
    if (message.locations != null) {
      const sanitized = sanitizeLocations(message.locations);
      if (sanitized.dropped.length) (warnings ??= []).push(...sanitized.dropped);
      locations = sanitized.items;
    }
    const rawInput = message.rawInput ?? undefined;
    const rawOutput = message.rawOutput ?? undefined;
    const terminalId = terminalIdOf(content ?? NO_CONTENT, message._meta);

    const call = this.byId.get(id);
    if (!call) {
      // Tolerated: the agent may have sent the `tool_call` before we listened, or not at all.
      (warnings ??= []).push(`tool_call_update for unknown tool call "${id}": created the call from the update`);
      const created = this.create(id, {
        title: title ?? id,
        name,
        kind,
        status: status ?? 'pending',
        content: content ?? [],
        locations: locations ?? [],
        terminalId,
        // Absent, not undefined, when not sent (as a `tool_call` without them).
        ...(rawInput !== undefined ? { rawInput } : {}),
        ...(rawOutput !== undefined ? { rawOutput } : {}),
      });
      return { call: created, created: true, changed: true, contentReplaced: false, warnings: warnings ?? NO_WARNINGS, meta: message._meta };
    }
    // Patched in place, field by field: this runs for most of a busy agent's updates, and a
    // `Partial<Fields>` built per update plus a keyed loop over it cost more than the fields.
    let changed = false;
    let contentReplaced = false;
    if (title !== undefined && title !== call.title) {
      call.title = title;
      changed = true;
    }
    if (name !== undefined && name !== call.name) {
      call.name = name;
      changed = true;
    }
    if (kind !== undefined && kind !== call.kind) {
      call.kind = kind;
      changed = true;
    }
    if (status !== undefined && status !== call.status) {
      call.status = status;
      changed = true;
    }
    if (content !== undefined && !jsonEqual(call.content, content)) {
      call.content = content;
      changed = true;
      contentReplaced = true;
    }
    if (locations !== undefined && !jsonEqual(call.locations, locations)) {
      call.locations = locations;
      changed = true;
    }
    if (rawInput !== undefined && !jsonEqual(call.rawInput, rawInput)) {
      call.rawInput = rawInput;
      changed = true;
    }
    if (rawOutput !== undefined && !jsonEqual(call.rawOutput, rawOutput)) {
      call.rawOutput = rawOutput;
      changed = true;
    }
    if (terminalId !== undefined && terminalId !== call.terminalId) {
      call.terminalId = terminalId;
      changed = true;
    }
    if (changed) call.revision++;
    if (contentReplaced) call.contentRevision++;
    return { call, created: false, changed, contentReplaced, warnings: warnings ?? NO_WARNINGS, meta: message._meta };
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

  /** A call first seen in an update (rare): only the fields it was sent. */
  private create(id: string, fields: Fields): ToolCallState {
    const call: ToolCallState = { id, ...fields, order: this.ordered.length, revision: 0, contentRevision: 0 };
    this.add(call);
    return call;
  }

  private add(call: ToolCallState): void {
    this.byId.set(call.id, call);
    this.ordered.push(call);
  }

  private patch(call: ToolCallState, fields: Partial<Fields>, warnings: readonly string[], meta: unknown): ToolCallApplied {
    let changed = false;
    let contentReplaced = false;
    for (const key of FIELD_KEYS) {
      if (!setField(call, fields, key)) continue;
      changed = true;
      if (key === 'content') contentReplaced = true;
    }
    if (changed) call.revision++;
    if (contentReplaced) call.contentRevision++;
    return { call, created: false, changed, contentReplaced, warnings, meta };
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
