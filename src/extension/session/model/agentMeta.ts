/**
 * What agents say of a tool call beyond ACP's fields, in the `_meta` of their messages (pure).
 * Every reading of one agent's private shapes is here, so a new version of an adapter breaks one
 * module, and what the rest of the extension sees is agent-neutral.
 *
 * Claude's adapter (`@agentclientprotocol/claude-agent-acp`) sends Claude Code's own tool response
 * once, on one `tool_call_update` of the call, as `_meta.claudeCode.toolResponse`; its other
 * messages carry only `_meta.claudeCode.toolName`. For Edit and Write the response is
 * `{ filePath, originalFile, structuredPatch, … }`, `originalFile` the file as it was before the
 * tool ran (null for a file the tool created). The adapter also stands in for what a client did
 * not advertise: a "Compact conversation" tool call for a compaction, a bold message for a notice.
 * A third-party agent's `_meta` is untrusted input: anything of another shape reads as nothing said.
 */

import type { CompactionCallReport } from './compactions';
import type { SessionNotice } from './notices';

/** The agent's own copy of a file as it was before the call. */
export interface ReportedOriginal {
  /** The file, as the agent names it (absolute). */
  readonly path: string;
  /** Its text before; null when the call created it. */
  readonly text: string | null;
}

/** What the agent reported of its tool's result in one message. */
export interface ToolReport {
  /** Undefined when the report names no file it had a copy of (a Read, a Bash). */
  readonly original: ReportedOriginal | undefined;
}

/** The report of the tool's result a message's `_meta` carries, or undefined when it carries none. */
export function toolReportOf(meta: unknown): ToolReport | undefined {
  if (!isRecord(meta) || !isRecord(meta.claudeCode)) return undefined;
  const response = meta.claudeCode.toolResponse;
  if (!isRecord(response)) return undefined;
  const { filePath, originalFile } = response;
  const named = typeof filePath === 'string' && (originalFile === null || typeof originalFile === 'string');
  return { original: named ? { path: filePath, text: originalFile } : undefined };
}

/**
 * Whether a tool call's message is the "Compact conversation" call Claude's adapter sends to a
 * client that did not advertise `session.compaction`: every message of it says
 * `_meta.claudeCode.toolName: "compact"`.
 */
export function isCompactionCall(meta: unknown): boolean {
  return isRecord(meta) && isRecord(meta.claudeCode) && meta.claudeCode.toolName === 'compact';
}

/**
 * What that call reports: its status, and from its raw output `{trigger, preTokens, postTokens,
 * durationMs}` the context before and after, or its error (`error` there, or the content text
 * "Compaction failed: …").
 */
export function compactionCallReport(message: { status?: unknown; rawOutput?: unknown; content?: unknown }): CompactionCallReport {
  const status = message.status === 'pending' || message.status === 'in_progress' || message.status === 'completed' || message.status === 'failed' ? message.status : undefined;
  const output = isRecord(message.rawOutput) ? message.rawOutput : {};
  const tokens = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined);
  let error = typeof output.error === 'string' && output.error ? output.error : undefined;
  if (!error && Array.isArray(message.content)) {
    for (const item of message.content as unknown[]) {
      const text = isRecord(item) && isRecord(item.content) && typeof item.content.text === 'string' ? item.content.text : undefined;
      const failed = text ? /^Compaction failed: ([^]*)$/.exec(text) : null;
      if (failed?.[1]) error = failed[1];
    }
  }
  return { status, error, tokensBefore: tokens(output.preTokens), tokensAfter: tokens(output.postTokens) };
}

/**
 * A notice Claude's adapter sent as the agent's text because the client did not advertise
 * `session.notices`: one bold-led `agent_message_chunk` ("**MCP server "x" failed to start:** …",
 * "**Warning:** …") whose `_meta.claudeCode` says `{kind: "mcpServerStatus", server, status}` or
 * `{kind: "informational", level}`. Undefined for any other message (the answer itself).
 */
export function noticeOfMessage(meta: unknown, content: unknown): SessionNotice | undefined {
  if (!isRecord(meta) || !isRecord(meta.claudeCode)) return undefined;
  const { kind } = meta.claudeCode;
  if (kind !== 'mcpServerStatus' && kind !== 'informational') return undefined;
  const text = isRecord(content) && content.type === 'text' && typeof content.text === 'string' ? content.text.trim() : '';
  if (!text) return undefined;
  const severity =
    kind === 'mcpServerStatus'
      ? meta.claudeCode.status === 'failed' ? 'warning' : 'info'
      : typeof meta.claudeCode.level === 'string' && meta.claudeCode.level ? meta.claudeCode.level : 'info';
  // "**Title:** description", or "**Title**: description"; else the whole line is the title.
  const bold = /^\*\*([^*]+?):?\*\*:?\s*([^]*)$/.exec(text);
  const title = bold?.[1]?.trim() || text;
  const description = bold ? bold[2]?.trim() || undefined : undefined;
  return { severity, title, description };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
