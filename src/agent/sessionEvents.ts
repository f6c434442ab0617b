/**
 * The on-disk vocabulary of a session: one JSON event per line. Everything a session shows is
 * derived from these events, live and on replay; events are validated before they are appended,
 * and again when read back (a log may be old, or damaged).
 */
import * as z from 'zod';
import type { JsonValue } from './json';

export const SESSION_LOG_VERSION = 1;

const contentBlock = z.looseObject({ type: z.string() });

const header = z.object({
  type: z.literal('session'),
  version: z.literal(SESSION_LOG_VERSION),
  sessionId: z.string(),
  cwd: z.string(),
  createdAt: z.string(),
});

const userMessage = z.object({ type: z.literal('user_message'), content: z.array(contentBlock) });
const agentMessage = z.object({ type: z.literal('agent_message'), text: z.string() });
const agentThought = z.object({ type: z.literal('agent_thought'), text: z.string() });

const plan = z.object({
  type: z.literal('plan'),
  entries: z.array(
    z.object({
      content: z.string(),
      priority: z.enum(['high', 'medium', 'low']),
      status: z.enum(['pending', 'in_progress', 'completed']),
    }),
  ),
});

const mode = z.object({ type: z.literal('mode'), modeId: z.string() });

/**
 * The schema of events, with `json` for the fields that hold any JSON value. Appending checks
 * them with `z.json()`; reading does not need to, and skips that walk (most of a replay's
 * validation time): whatever `JSON.parse` returns is JSON already.
 */
function eventSchema(json: z.ZodType<JsonValue>) {
  const toolCall = z.object({
    type: z.literal('tool_call'),
    toolCallId: z.string(),
    tool: z.string(),
    /** Self-contained (absolute paths), so the call presents the same anywhere. */
    args: json,
  });

  const toolResult = z.object({
    type: z.literal('tool_result'),
    toolCallId: z.string(),
    isError: z.boolean(),
    /** What the model was told. */
    text: z.string(),
    /** Tool-owned presentation data (e.g. applied hunks), stored uninterpreted. */
    meta: json.optional(),
  });

  return z.discriminatedUnion('type', [header, userMessage, agentMessage, agentThought, toolCall, toolResult, plan, mode]);
}

/** What may be appended: every field checked, JSON fields included. */
export const sessionEvent = eventSchema(z.json());

/** What is read back from a log line that `JSON.parse` accepted (the test of `readSessionEvent`). */
export const parsedSessionEvent = eventSchema(z.custom<JsonValue>((value) => value !== undefined));

/**
 * The read check of a replay: what `parsedSessionEvent.safeParse(value).data` gives (the same
 * checks, unknown keys left out, fields in the schema's order), written out so that a 10,000-event
 * replay neither runs zod per line nor copies every event generically (a third of its time).
 * test/unit/agent/sessionLog.test.ts holds the two to agreement.
 */
export function readSessionEvent(value: unknown): SessionEvent | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'session':
      return value.version === SESSION_LOG_VERSION && isString(value.sessionId) && isString(value.cwd) && isString(value.createdAt)
        ? { type: 'session', version: SESSION_LOG_VERSION, sessionId: value.sessionId, cwd: value.cwd, createdAt: value.createdAt }
        : undefined;
    case 'user_message': {
      const content = value.content;
      if (!Array.isArray(content)) return undefined;
      const blocks: { [key: string]: unknown; type: string }[] = [];
      for (const block of content) {
        // A block keeps all its fields (a loose object in the schema).
        if (!isRecord(block) || !isString(block.type)) return undefined;
        blocks.push(block as { [key: string]: unknown; type: string });
      }
      return { type: 'user_message', content: blocks };
    }
    case 'agent_message':
    case 'agent_thought':
      return isString(value.text) ? { type: value.type, text: value.text } : undefined;
    case 'tool_call':
      return isString(value.toolCallId) && isString(value.tool) && value.args !== undefined
        ? { type: 'tool_call', toolCallId: value.toolCallId, tool: value.tool, args: value.args as JsonValue }
        : undefined;
    case 'tool_result': {
      if (!isString(value.toolCallId) || typeof value.isError !== 'boolean' || !isString(value.text)) return undefined;
      const result: ToolResultEvent = { type: 'tool_result', toolCallId: value.toolCallId, isError: value.isError, text: value.text };
      if (value.meta !== undefined) result.meta = value.meta as JsonValue;
      return result;
    }
    case 'plan': {
      if (!Array.isArray(value.entries)) return undefined;
      const entries: Extract<SessionEvent, { type: 'plan' }>['entries'] = [];
      for (const entry of value.entries) {
        if (!isRecord(entry) || !isString(entry.content) || !PRIORITIES.has(entry.priority) || !STATUSES.has(entry.status)) return undefined;
        entries.push({ content: entry.content, priority: entry.priority as Priority, status: entry.status as Status });
      }
      return { type: 'plan', entries };
    }
    case 'mode':
      return isString(value.modeId) ? { type: 'mode', modeId: value.modeId } : undefined;
    default:
      return undefined;
  }
}

type Priority = z.infer<typeof plan>['entries'][number]['priority'];
type Status = z.infer<typeof plan>['entries'][number]['status'];
const PRIORITIES = new Set<unknown>(plan.shape.entries.element.shape.priority.options);
const STATUSES = new Set<unknown>(plan.shape.entries.element.shape.status.options);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

export type SessionEvent = z.infer<typeof sessionEvent>;
export type SessionHeader = z.infer<typeof header>;
export type ToolCallEvent = Extract<SessionEvent, { type: 'tool_call' }>;
export type ToolResultEvent = Extract<SessionEvent, { type: 'tool_result' }>;
