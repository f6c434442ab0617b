/**
 * A call to a tool of one of the session's MCP servers. Brains do not hand the model this tool:
 * they offer each MCP tool as its own function (`mcp__SERVER__TOOL`) and call this one with the
 * server, the tool, its arguments and the card kind its annotations suggest, all logged, so
 * replay shows the same `SERVER: TOOL` card without the server running.
 */
import * as z from 'zod';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { JsonValue } from '../json';
import { McpServerError } from '../mcp/connection';
import { callOutput, callTitle, functionNames, MCP_CALL_KINDS, type McpCallOutput } from '../mcp/content';
import { textBlock } from '../views';
import { ToolError, type ToolDefinition } from './types';

export const MCP_TOOL_NAME = 'mcp';

const args = z.object({
  server: z.string().min(1).describe('The MCP server, by the name the client gave it.'),
  tool: z.string().min(1).describe('The tool of that server.'),
  arguments: z.record(z.string(), z.unknown()).optional().describe("The tool's arguments, per its input schema."),
  kind: z.enum(MCP_CALL_KINDS).optional(),
});
export type McpCallArgs = z.infer<typeof args>;

export const mcpTool: ToolDefinition<McpCallArgs, McpCallOutput> = {
  name: MCP_TOOL_NAME,
  description: 'Call a tool of an MCP server of this session.',
  args,
  permission: () => 'mcp',
  presentCall: (a) => ({ card: 'generic', title: callTitle(a.server, a.tool), kind: a.kind ?? 'other', rawInput: a.arguments ?? {} }),
  async execute(a, ctx) {
    try {
      return callOutput(await ctx.mcp.call(a.server, a.tool, a.arguments ?? {}, ctx.signal));
    } catch (error) {
      // The server's own failure (it did not start, it died, it is not there): the card fails with
      // its words, and the turn goes on.
      if (error instanceof McpServerError) throw new ToolError(error.message);
      throw error;
    }
  },
  output: {
    render: (_a, value) => ({ isError: value.isError, text: value.text }),
    // The card's content (images and resources included) is kept in the log for replay.
    presentationMeta: (_a, value) => ({ blocks: value.blocks as unknown as JsonValue }),
  },
  presentResult(_a, outcome, meta) {
    const blocks = metaBlocks(meta);
    return { card: 'generic', content: blocks !== undefined && blocks.length > 0 ? blocks : [textBlock(outcome.text)] };
  },
};

function metaBlocks(meta: JsonValue | undefined): ContentBlock[] | undefined {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return undefined;
  const blocks = meta.blocks;
  return Array.isArray(blocks) ? (blocks as unknown as ContentBlock[]) : undefined;
}

/** How the model saw a logged MCP call: its function name and arguments (for the history). */
export function modelFacingCall(tool: string, logged: JsonValue): { name: string; arguments: string } | undefined {
  if (tool !== MCP_TOOL_NAME) return undefined;
  const parsed = args.safeParse(logged);
  if (!parsed.success) return undefined;
  const [name] = functionNames([{ server: parsed.data.server, tool: parsed.data.tool }]);
  return { name: name ?? MCP_TOOL_NAME, arguments: JSON.stringify(parsed.data.arguments ?? {}) };
}
