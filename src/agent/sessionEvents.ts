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

/** What is read back from a log line that `JSON.parse` accepted. */
export const parsedSessionEvent = eventSchema(z.custom<JsonValue>((value) => value !== undefined));

export type SessionEvent = z.infer<typeof sessionEvent>;
export type SessionHeader = z.infer<typeof header>;
export type ToolCallEvent = Extract<SessionEvent, { type: 'tool_call' }>;
export type ToolResultEvent = Extract<SessionEvent, { type: 'tool_result' }>;
