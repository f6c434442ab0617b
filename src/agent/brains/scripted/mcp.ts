/** The scripted brain's `/mcp`: list the session's MCP servers and tools, or call one. */
import { kindFromAnnotations } from '../../mcp/content';
import type { McpServerListing } from '../../mcp/hub';
import { MCP_TOOL_NAME } from '../../tools/mcp';
import type { TurnContext } from '../types';

export async function listMcpServers(turn: TurnContext): Promise<string> {
  if (turn.mcp.serverNames.length === 0) {
    return 'This session has no MCP servers: the client sent none. (In ACP Native: the `acpNative.mcpServers` setting, or the servers VS Code knows from `.vscode/mcp.json` and the `mcp` settings.)';
  }
  const listings = await turn.mcp.list(turn.signal);
  return [`MCP servers of this session (${listings.length}):`, ...listings.map(describeServer)].join('\n');
}

function describeServer(server: McpServerListing): string {
  if (server.status === 'failed') return `- **${server.name}** (${server.transport}): unavailable. ${server.error.replace(/\n/g, '\n  ')}`;
  const count = `${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`;
  const tools = server.tools.map((t) => `  - \`${t.name}\`${t.description ? ` — ${firstLine(t.description)}` : ''}`);
  return [`- **${server.name}** (${server.transport}): ${count}`, ...tools].join('\n');
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

export async function callMcpTool(turn: TurnContext, server: string, tool: string, args: Record<string, unknown>): Promise<void> {
  // The card's icon comes from the tool's annotations; a server that cannot say (it failed to
  // start) still gets its card, which then fails with the server's error.
  const info = await turn.mcp.describe(server, tool, turn.signal);
  const kind = info !== undefined ? kindFromAnnotations(info) : 'other';
  await turn.runTool(MCP_TOOL_NAME, { server, tool, arguments: args, kind });
}
