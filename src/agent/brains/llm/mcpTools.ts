/**
 * The session's MCP tools as model functions (`mcp__SERVER__TOOL`, with the tool's input schema),
 * read at the start of each turn, and the way back from a function name to the MCP call.
 */
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { log } from '../../log';
import { functionNames, kindFromAnnotations, type McpCallKind } from '../../mcp/content';
import type { McpToolEntry } from '../../mcp/hub';
import type { McpCallArgs } from '../../tools/mcp';
import type { TurnContext } from '../types';

export interface McpFunctions {
  specs: ChatCompletionTool[];
  /** Function name → the MCP call it stands for. */
  byName: Map<string, { server: string; tool: string; kind: McpCallKind }>;
  /** Servers that could not be started, with why: the model is told, so it can tell the user. */
  unavailable: string[];
}

export async function mcpFunctions(turn: TurnContext): Promise<McpFunctions> {
  const result: McpFunctions = { specs: [], byName: new Map(), unavailable: [] };
  if (turn.mcp.serverNames.length === 0) return result;
  const entries: McpToolEntry[] = [];
  for (const listing of await turn.mcp.list(turn.signal)) {
    if (listing.status === 'failed') {
      log.warn(listing.error);
      result.unavailable.push(listing.error.split('\n')[0] ?? listing.name);
    } else {
      entries.push(...listing.tools.map((tool) => ({ server: listing.name, tool })));
    }
  }
  const names = functionNames(entries.map((e) => ({ server: e.server, tool: e.tool.name })));
  entries.forEach((entry, i) => {
    const name = names[i];
    if (name === undefined) return;
    result.byName.set(name, { server: entry.server, tool: entry.tool.name, kind: kindFromAnnotations(entry.tool) });
    result.specs.push({
      type: 'function',
      function: {
        name,
        description: `${entry.tool.description ?? entry.tool.title ?? entry.tool.name} (tool "${entry.tool.name}" of the MCP server "${entry.server}")`,
        parameters: entry.tool.inputSchema as Record<string, unknown>,
      },
    });
  });
  return result;
}

/** The `mcp` tool's arguments for a model's call of an MCP function. */
export function mcpCallArgs(target: { server: string; tool: string; kind: McpCallKind }, args: unknown): McpCallArgs {
  const record = typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  return { server: target.server, tool: target.tool, arguments: record, kind: target.kind };
}
