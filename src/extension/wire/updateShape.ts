import type { SessionNotification } from '@agentclientprotocol/sdk';
import type { SessionNotification as UnstableSessionNotification } from '@agentclientprotocol/sdk/unstable';

/**
 * A fast, hand-written check of an incoming `session/update` notification: per `sessionUpdate`
 * kind, the type of every field the client reads (SessionState, ToolCallStore and, through the
 * state, the renderers). It replaces the SDK's zod parse, which cost 20-40x a `JSON.parse` of the
 * same line and whose result the SDK threw away anyway (its router only rejected; our handler got
 * the raw params). So this is the only gate between an agent's bytes and the session state.
 *
 * What it does not check, on purpose:
 * - the items of a tool call's `content` and `locations`: `wireValues.ts` drops a malformed item
 *   with a warning and keeps the rest of the call (losing less than rejecting the whole update);
 * - `rawInput`, `rawOutput` and `_meta`: any JSON; their readers (`readTerminalMeta`, the raw
 *   JSON views) are defensive;
 * - unknown `sessionUpdate` kinds: SessionState ignores them with a warning and keeps the
 *   session, as ACP asks of an update newer than the client;
 * - a compaction's `status` and a notice's `severity`: open sets (a newer one shows as it is).
 * Closed unions the renderers switch on (plan priority and status, content block type, config
 * option type) must hold one of their known values; a tool call's `kind` or `status` newer than
 * this client is dropped from the update instead, so the card still shows.
 */

/** Why an update was rejected. `kind` groups problems for logging once per kind. */
export interface UpdateProblem {
  /** e.g. `tool_call_update.status`: the update kind and the field, indices left out. */
  readonly kind: string;
  /** A sentence naming the field, what it must be and what it was. */
  readonly message: string;
}

export type UpdateCheck =
  | {
      readonly ok: true;
      readonly notification: SessionNotification;
      /**
       * Values newer than this client in a tool call's open-ended `kind`/`status`, e.g.
       * `tool_call.kind "browse"`: dropped from the update (as the SDK's schema drops them), so
       * the card still shows, as a plain card, keeping its last known status.
       */
      readonly newerValues?: readonly string[];
    }
  | { readonly ok: false; readonly problem: UpdateProblem };

const TOOL_KINDS: ReadonlySet<unknown> = new Set(['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other']);
const TOOL_STATUSES: ReadonlySet<unknown> = new Set(['pending', 'in_progress', 'completed', 'failed']);
const PLAN_PRIORITIES: ReadonlySet<unknown> = new Set(['high', 'medium', 'low']);
const PLAN_STATUSES: ReadonlySet<unknown> = new Set(['pending', 'in_progress', 'completed']);

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** A failed check: the field's path (for the message) and what it must be. */
class Bad {
  constructor(
    readonly path: string,
    readonly expected: string,
    readonly actual: unknown,
  ) {}
}

// Each checker returns undefined when the value is fine, else a Bad: no allocation on success.

function str(value: unknown, path: string): Bad | undefined {
  return typeof value === 'string' ? undefined : new Bad(path, 'a string', value);
}

function optStr(value: unknown, path: string): Bad | undefined {
  return value == null || typeof value === 'string' ? undefined : new Bad(path, 'a string, null or absent', value);
}

function oneOf(value: unknown, allowed: ReadonlySet<unknown>, path: string, optional: boolean): Bad | undefined {
  if (allowed.has(value) || (optional && value == null)) return undefined;
  return new Bad(path, `one of ${[...allowed].join(', ')}${optional ? ' (or absent)' : ''}`, value);
}

function optArray(value: unknown, path: string): Bad | undefined {
  return value == null || Array.isArray(value) ? undefined : new Bad(path, 'an array, null or absent', value);
}

function nonNegative(value: unknown, path: string): Bad | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? undefined : new Bad(path, 'a number ≥ 0', value);
}

/** A message chunk's ContentBlock (the transcript renders it by `type`). */
function contentBlock(block: unknown, path: string): Bad | undefined {
  if (!isRecord(block)) return new Bad(path, 'a content block', block);
  switch (block.type) {
    case 'text':
      return str(block.text, `${path}.text`);
    case 'image':
    case 'audio':
      return str(block.data, `${path}.data`) ?? str(block.mimeType, `${path}.mimeType`);
    case 'resource_link':
      return str(block.uri, `${path}.uri`) ?? str(block.name, `${path}.name`);
    case 'resource': {
      const resource = block.resource;
      if (!isRecord(resource)) return new Bad(`${path}.resource`, 'an object', resource);
      if (typeof resource.text !== 'string' && typeof resource.blob !== 'string') {
        return new Bad(`${path}.resource.text`, 'a string (or a blob)', resource.text);
      }
      return str(resource.uri, `${path}.resource.uri`);
    }
    default:
      return new Bad(`${path}.type`, 'one of text, image, audio, resource_link, resource', block.type);
  }
}

function chunk(update: Rec): Bad | undefined {
  return contentBlock(update.content, 'content') ?? optStr(update.messageId, 'messageId');
}

function toolCall(update: Rec, created: boolean): Bad | undefined {
  return (
    str(update.toolCallId, 'toolCallId') ??
    (created ? str(update.title, 'title') : optStr(update.title, 'title')) ??
    optStr(update.name, 'name') ??
    oneOf(update.kind, TOOL_KINDS, 'kind', true) ??
    oneOf(update.status, TOOL_STATUSES, 'status', true) ??
    optArray(update.content, 'content') ??
    optArray(update.locations, 'locations')
  );
}

function planEntries(entries: unknown, path: string): Bad | undefined {
  if (!Array.isArray(entries)) return new Bad(path, 'an array', entries);
  for (let i = 0; i < entries.length; i++) {
    const entry: unknown = entries[i];
    if (!isRecord(entry)) return new Bad(`${path}[${i}]`, 'an object', entry);
    const bad =
      str(entry.content, `${path}[${i}].content`) ??
      oneOf(entry.priority, PLAN_PRIORITIES, `${path}[${i}].priority`, false) ??
      oneOf(entry.status, PLAN_STATUSES, `${path}[${i}].status`, false);
    if (bad) return bad;
  }
  return undefined;
}

function plan(update: Rec): Bad | undefined {
  return planEntries(update.entries, 'entries');
}

function commands(update: Rec): Bad | undefined {
  const list = update.availableCommands;
  if (!Array.isArray(list)) return new Bad('availableCommands', 'an array', list);
  for (let i = 0; i < list.length; i++) {
    const command: unknown = list[i];
    if (!isRecord(command)) return new Bad(`availableCommands[${i}]`, 'an object', command);
    const bad = str(command.name, `availableCommands[${i}].name`) ?? str(command.description, `availableCommands[${i}].description`);
    if (bad) return bad;
    const input = command.input;
    if (input != null && !(isRecord(input) && typeof input.hint === 'string')) {
      return new Bad(`availableCommands[${i}].input`, 'an object with a string hint, null or absent', input);
    }
  }
  return undefined;
}

function selectOption(option: unknown, path: string): Bad | undefined {
  if (!isRecord(option)) return new Bad(path, 'an object', option);
  return str(option.value, `${path}.value`) ?? str(option.name, `${path}.name`) ?? optStr(option.description, `${path}.description`);
}

function configOption(option: unknown, path: string): Bad | undefined {
  if (!isRecord(option)) return new Bad(path, 'an object', option);
  const bad = str(option.id, `${path}.id`) ?? str(option.name, `${path}.name`) ?? optStr(option.description, `${path}.description`);
  if (bad) return bad;
  switch (option.type) {
    case 'boolean':
      return typeof option.currentValue === 'boolean' ? undefined : new Bad(`${path}.currentValue`, 'a boolean', option.currentValue);
    case 'select': {
      const current = str(option.currentValue, `${path}.currentValue`);
      if (current) return current;
      const options = option.options;
      if (!Array.isArray(options)) return new Bad(`${path}.options`, 'an array', options);
      for (let i = 0; i < options.length; i++) {
        const item: unknown = options[i];
        // Either a flat list of options or a list of groups, each with its own options.
        if (isRecord(item) && 'group' in item) {
          const groupBad = str(item.group, `${path}.options[${i}].group`) ?? str(item.name, `${path}.options[${i}].name`);
          if (groupBad) return groupBad;
          const inner = item.options;
          if (!Array.isArray(inner)) return new Bad(`${path}.options[${i}].options`, 'an array', inner);
          for (let j = 0; j < inner.length; j++) {
            const innerBad = selectOption(inner[j], `${path}.options[${i}].options[${j}]`);
            if (innerBad) return innerBad;
          }
        } else {
          const itemBad = selectOption(item, `${path}.options[${i}]`);
          if (itemBad) return itemBad;
        }
      }
      return undefined;
    }
    default:
      return new Bad(`${path}.type`, 'select or boolean', option.type);
  }
}

function configOptions(update: Rec): Bad | undefined {
  const list = update.configOptions;
  if (!Array.isArray(list)) return new Bad('configOptions', 'an array', list);
  for (let i = 0; i < list.length; i++) {
    const bad = configOption(list[i], `configOptions[${i}]`);
    if (bad) return bad;
  }
  return undefined;
}

function usage(update: Rec): Bad | undefined {
  const bad = nonNegative(update.used, 'used') ?? nonNegative(update.size, 'size');
  if (bad) return bad;
  const cost = update.cost;
  if (cost == null) return undefined;
  if (!isRecord(cost)) return new Bad('cost', 'an object, null or absent', cost);
  return typeof cost.amount === 'number' ? str(cost.currency, 'cost.currency') : new Bad('cost.amount', 'a number', cost.amount);
}

function notice(update: Rec): Bad | undefined {
  // Severity is an open set (info, warning, error or any other string).
  const bad = str(update.severity, 'severity') ?? str(update.title, 'title');
  if (bad) return bad;
  if (update.title === '') return new Bad('title', 'a non-empty string', update.title);
  return optStr(update.description, 'description');
}

function planUpdate(update: Rec): Bad | undefined {
  const plan = update.plan;
  if (!isRecord(plan)) return new Bad('plan', 'an object', plan);
  const bad = str(plan.planId, 'plan.planId');
  if (bad) return bad;
  switch (plan.type) {
    case 'markdown':
      return str(plan.content, 'plan.content') ?? optStr(plan.path, 'plan.path');
    case 'file':
      return str(plan.uri, 'plan.uri');
    case 'items':
      return planEntries(plan.entries, 'plan.entries');
    default:
      return new Bad('plan.type', 'one of items, markdown, file', plan.type);
  }
}

function compactionUpdate(update: Rec): Bad | undefined {
  const bad = str(update.compactionId, 'compactionId') ?? str(update.status, 'status') ?? optArray(update.summary, 'summary') ?? optStr(update.error, 'error');
  if (bad) return bad;
  const summary = update.summary;
  if (Array.isArray(summary)) {
    for (let i = 0; i < summary.length; i++) {
      const blockBad = contentBlock(summary[i], `summary[${i}]`);
      if (blockBad) return blockBad;
    }
  }
  return undefined;
}

function subagentUpdate(update: Rec): Bad | undefined {
  const bad = str(update.sessionId, 'sessionId') ?? optStr(update.title, 'title') ?? optStr(update.description, 'description') ?? optStr(update.cwd, 'cwd');
  if (bad) return bad;
  if (update.sessionId === '') return new Bad('sessionId', 'a non-empty string', update.sessionId);
  const state = update.state;
  if (state != null && (!isRecord(state) || typeof state.state !== 'string')) return new Bad('state', 'an object with a string state, null or absent', state);
  const capabilities = update.capabilities;
  if (capabilities != null && !isRecord(capabilities)) return new Bad('capabilities', 'an object, null or absent', capabilities);
  return update.additionalDirectories == null ? undefined : optArray(update.additionalDirectories, 'additionalDirectories');
}

function optBlocks(value: unknown, path: string): Bad | undefined {
  if (value == null) return undefined;
  if (!Array.isArray(value)) return new Bad(path, 'an array, null or absent', value);
  for (let i = 0; i < value.length; i++) {
    const bad = contentBlock(value[i], `${path}[${i}]`);
    if (bad) return bad;
  }
  return undefined;
}

/** The kind's fields, or undefined for a kind whose fields the client does not read. */
function checkUpdate(kind: string, update: Rec): Bad | undefined {
  switch (kind) {
    case 'user_message_chunk':
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
      return chunk(update);
    case 'tool_call':
      return toolCall(update, true);
    case 'tool_call_update':
      return toolCall(update, false);
    case 'plan':
      return plan(update);
    case 'plan_update':
      return planUpdate(update);
    case 'plan_removed':
      return str(update.planId, 'planId');
    case 'compaction_update':
      return compactionUpdate(update);
    case 'compaction_summary_chunk':
      return str(update.compactionId, 'compactionId') ?? contentBlock(update.content, 'content');
    case 'available_commands_update':
      return commands(update);
    case 'config_option_update':
      return configOptions(update);
    case 'current_mode_update':
      return str(update.currentModeId, 'currentModeId');
    case 'session_info_update':
      return optStr(update.title, 'title') ?? optStr(update.updatedAt, 'updatedAt');
    case 'usage_update':
      return usage(update);
    case 'notice':
      return notice(update);
    case 'subagent_update':
      return subagentUpdate(update);
    case 'session_message':
      return str(update.messageId, 'messageId') ?? optStr(update.senderSessionId, 'senderSessionId') ?? optStr(update.recipientSessionId, 'recipientSessionId') ?? optBlocks(update.content, 'content');
    case 'session_message_chunk':
      return str(update.messageId, 'messageId') ?? contentBlock(update.content, 'content');
    default:
      // Kinds newer than this client: SessionState ignores them with a warning, as ACP asks.
      return undefined;
  }
}

/** Checks one `session/update`'s params; never throws. */
export function checkSessionNotification(params: unknown): UpdateCheck {
  if (!isRecord(params)) return reject('session/update', new Bad('params', 'an object', params));
  const badId = str(params.sessionId, 'sessionId');
  if (badId) return reject('session/update', badId);
  const update = params.update;
  if (!isRecord(update)) return reject('session/update', new Bad('update', 'an object', update));
  const kind = update.sessionUpdate;
  if (typeof kind !== 'string') return reject('session/update', new Bad('update.sessionUpdate', 'a string', kind));
  const newerValues = kind === 'tool_call' || kind === 'tool_call_update' ? dropNewerToolValues(kind, update) : undefined;
  const bad = checkUpdate(kind, update);
  if (bad) return reject(kind, bad);
  const notification = params as unknown as SessionNotification;
  return newerValues ? { ok: true, notification, newerValues } : { ok: true, notification };
}

/**
 * A tool kind or status added by a newer ACP is not a malformed update: rejecting it would lose
 * the whole card. The field is removed instead (an absent kind is a plain card, an absent status
 * keeps the last one) and the caller logs it once. A wrong type (a number, an object) still rejects.
 */
function dropNewerToolValues(kind: string, update: Rec): string[] | undefined {
  // Two plain calls, no list of pairs: this runs for every tool-call message and must not allocate.
  const droppedKind = dropNewerValue(kind, update, 'kind', TOOL_KINDS);
  const droppedStatus = dropNewerValue(kind, update, 'status', TOOL_STATUSES);
  if (droppedKind === undefined) return droppedStatus === undefined ? undefined : [droppedStatus];
  return droppedStatus === undefined ? [droppedKind] : [droppedKind, droppedStatus];
}

function dropNewerValue(kind: string, update: Rec, field: 'kind' | 'status', known: ReadonlySet<unknown>): string | undefined {
  const value = update[field];
  if (typeof value !== 'string' || known.has(value)) return undefined;
  delete update[field];
  return `${kind}.${field} ${describe(value)}`;
}

/** The `sessionUpdate` kinds of the ACP version this client speaks (SessionState reads or ignores each). */
const KNOWN_KINDS: ReadonlySet<string> = new Set([
  'user_message_chunk',
  'agent_message_chunk',
  'agent_thought_chunk',
  'tool_call',
  'tool_call_update',
  'plan',
  'available_commands_update',
  'config_option_update',
  'current_mode_update',
  'session_info_update',
  'usage_update',
  'notice',
  'compaction_update',
  'compaction_summary_chunk',
  'plan_update',
  'plan_removed',
  'subagent_update',
  'session_message',
  'session_message_chunk',
] satisfies UnstableSessionNotification['update']['sessionUpdate'][]);

/** A kind newer than this client (accepted, then ignored by SessionState): worth one log line. */
export function isUnknownUpdateKind(notification: SessionNotification): boolean {
  return !KNOWN_KINDS.has(notification.update.sessionUpdate);
}

function reject(kind: string, bad: Bad): UpdateCheck {
  return {
    ok: false,
    problem: {
      kind: `${kind}.${bad.path.replace(/\[\d+\]/g, '[]')}`,
      message: `session/update "${kind}" rejected: ${bad.path} must be ${bad.expected}, got ${describe(bad.actual)}`,
    },
  };
}
