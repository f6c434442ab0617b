/**
 * The MCP servers of one session, by name. Servers start on first use (listing tools or calling
 * one), so a session that never needs them never spawns them; they stop with the session.
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { log } from '../log';
import { McpServerConnection, McpServerError, type McpTransportKind } from './connection';

/** What `/mcp` shows of a server: its tools, or why it has none. */
export type McpServerListing =
  | { name: string; transport: McpTransportKind; status: 'ready'; tools: McpToolInfo[] }
  | { name: string; transport: McpTransportKind; status: 'failed'; error: string };

export interface McpToolEntry {
  server: string;
  tool: McpToolInfo;
}

/** What turns and tools use of a session's MCP servers. */
export interface McpAccess {
  readonly serverNames: readonly string[];
  /** Every server with its tools, starting those not yet running. */
  list(signal?: AbortSignal): Promise<McpServerListing[]>;
  /** The tool's description, or undefined when the server or tool is not there. */
  describe(server: string, tool: string, signal?: AbortSignal): Promise<McpToolInfo | undefined>;
  /** Calls a tool; a failure of the server itself throws `McpServerError` with the server's words. */
  call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
}

export class McpHub implements McpAccess {
  private readonly connections = new Map<string, McpServerConnection>();
  /** The list as the client sent it, to tell a changed list from the same one. */
  readonly signature: string;

  constructor(servers: readonly McpServer[], deps: { cwd: string; clientVersion: string }) {
    this.signature = JSON.stringify(servers);
    for (const server of servers) {
      if (this.connections.has(server.name)) {
        log.warn(`two MCP servers are named ${server.name}: the second is ignored`);
        continue;
      }
      this.connections.set(server.name, new McpServerConnection(server, deps));
    }
  }

  get serverNames(): readonly string[] {
    return [...this.connections.keys()];
  }

  async list(signal?: AbortSignal): Promise<McpServerListing[]> {
    return Promise.all(
      [...this.connections.values()].map(async (c): Promise<McpServerListing> => {
        try {
          return { name: c.name, transport: c.kind, status: 'ready', tools: await c.listTools(signal) };
        } catch (error) {
          return { name: c.name, transport: c.kind, status: 'failed', error: error instanceof Error ? error.message : String(error) };
        }
      }),
    );
  }

  async describe(server: string, tool: string, signal?: AbortSignal): Promise<McpToolInfo | undefined> {
    try {
      return (await this.connections.get(server)?.listTools(signal))?.find((t) => t.name === tool);
    } catch {
      // The call that follows reports the server's failure on its card.
      return undefined;
    }
  }

  async call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const connection = this.connections.get(server);
    if (connection === undefined) {
      const names = this.serverNames;
      throw new McpServerError(
        `There is no MCP server named "${server}" in this session${names.length ? ` (there is ${names.map((n) => `"${n}"`).join(', ')})` : ''}.`,
      );
    }
    return connection.callTool(tool, args, signal);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.connections.values()].map((c) => c.close()));
  }
}
