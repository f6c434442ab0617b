/**
 * What agents say of a tool call beyond ACP's fields, in the `_meta` of their messages (pure).
 * Every reading of one agent's private shapes is here, so a new version of an adapter breaks one
 * module, and what the rest of the extension sees is agent-neutral.
 *
 * Claude's adapter (`@agentclientprotocol/claude-agent-acp`) sends Claude Code's own tool response
 * once, on one `tool_call_update` of the call, as `_meta.claudeCode.toolResponse`; its other
 * messages carry only `_meta.claudeCode.toolName`. For Edit and Write the response is
 * `{ filePath, originalFile, structuredPatch, … }`, `originalFile` the file as it was before the
 * tool ran (null for a file the tool created). A third-party agent's `_meta` is untrusted input:
 * anything of another shape reads as nothing said.
 */

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
