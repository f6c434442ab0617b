/**
 * One MCP server a session was given, reached through the official MCP TypeScript SDK: stdio
 * (a child process), streamable HTTP or SSE. It connects on first use, keeps the tail of a stdio
 * server's stderr so failures can say what the server said, and reconnects on the next use after
 * the server died.
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, Tool as McpToolInfo } from '@modelcontextprotocol/sdk/types.js';
import { log } from '../log';

/** The MCP SDK, evaluated on the first server's first use (see sdk.ts). */
type McpSdk = typeof import('./sdk');

/** Starting a server and its handshake; a server that takes longer is reported as failed. */
const CONNECT_TIMEOUT_MS = 30_000;
/** A tool call may run long, as long as the server reports progress. */
const CALL_TIMEOUT_MS = 5 * 60_000;
const STDERR_TAIL_CHARS = 2_000;
const MAX_TOOL_PAGES = 20;

/** A failure of the server itself (not of one tool call), in words for the user and the model. */
export class McpServerError extends Error {
  override name = 'McpServerError';
}

export type McpTransportKind = 'stdio' | 'http' | 'sse';

export function transportKind(server: McpServer): McpTransportKind {
  return 'type' in server && (server.type === 'http' || server.type === 'sse') ? server.type : 'stdio';
}

export class McpServerConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private tools: McpToolInfo[] | undefined;
  private stderrTail = '';
  private closed = false;
  /** Aborted on close: a server still starting is not waited for. */
  private readonly lifetime = new AbortController();

  constructor(
    readonly server: McpServer,
    private readonly deps: { cwd: string; clientVersion: string },
  ) {}

  get name(): string {
    return this.server.name;
  }

  get kind(): McpTransportKind {
    return transportKind(this.server);
  }

  async listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    const client = await this.connect(signal);
    if (this.tools !== undefined) return this.tools;
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const response = await client.listTools(cursor !== undefined ? { cursor } : undefined, { signal, timeout: CONNECT_TIMEOUT_MS });
        tools.push(...response.tools);
        cursor = response.nextCursor;
        if (cursor === undefined) break;
      }
    } catch (error) {
      throw this.failure('could not list its tools', error);
    }
    this.tools = tools;
    return tools;
  }

  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
    const client = await this.connect(signal);
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal,
        timeout: CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
      });
      return result as CallToolResult;
    } catch (error) {
      if (signal.aborted) throw new McpServerError('Cancelled.');
      throw this.failure(`failed during ${tool}`, error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.lifetime.abort();
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.connecting = undefined;
    await client?.close().catch((error: unknown) => log.warn(`closing MCP server ${this.name}`, error));
  }

  private connect(signal?: AbortSignal): Promise<Client> {
    if (this.closed) return Promise.reject(new McpServerError(`MCP server "${this.name}" was closed with its session.`));
    if (this.client !== undefined) return Promise.resolve(this.client);
    this.connecting ??= this.start(signal).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async start(signal?: AbortSignal): Promise<Client> {
    this.stderrTail = '';
    this.tools = undefined;
    const sdk = await import('./sdk');
    const transport = this.transport(sdk);
    const client = new sdk.Client({ name: 'acp-native-agent', version: this.deps.clientVersion });
    client.onclose = () => {
      if (this.client !== client) return;
      // The server went away (a crash, or it ended): the next use starts it again.
      this.client = undefined;
      this.tools = undefined;
      if (!this.closed) log.warn(`MCP server ${this.name} closed the connection${this.stderrSuffix()}`);
    };
    client.onerror = (error) => log.debug(`MCP server ${this.name}: ${String(error)}`);
    try {
      const abort = signal !== undefined ? AbortSignal.any([signal, this.lifetime.signal]) : this.lifetime.signal;
      await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS, signal: abort });
    } catch (error) {
      await transport.close().catch(() => undefined);
      throw this.failure('failed to start', error);
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpServerError(`MCP server "${this.name}" was closed with its session.`);
    }
    log.info(`MCP server ${this.name} (${this.kind}) connected`);
    this.client = client;
    return client;
  }

  private transport(sdk: McpSdk): Transport {
    const server = this.server;
    if ('type' in server && (server.type === 'http' || server.type === 'sse')) {
      const headers = Object.fromEntries(server.headers.map((h) => [h.name, h.value]));
      const url = new URL(server.url);
      return server.type === 'http'
        ? new sdk.StreamableHTTPClientTransport(url, { requestInit: { headers } })
        : new sdk.SSEClientTransport(url, { requestInit: { headers } });
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    const transport = new sdk.StdioClientTransport({
      command: stdio.command,
      args: stdio.args,
      // The SDK's short list of safe variables (PATH, HOME…), not the agent's whole environment:
      // the agent's own secrets (its model API key) are no business of a tool server.
      env: { ...sdk.getDefaultEnvironment(), ...Object.fromEntries(stdio.env.map((e) => [e.name, e.value])) },
      cwd: this.deps.cwd,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log.debug(`MCP server ${this.name} stderr: ${text.trimEnd()}`);
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
    });
    return transport;
  }

  private failure(what: string, error: unknown): McpServerError {
    const reason = error instanceof Error ? error.message : String(error);
    return new McpServerError(`MCP server "${this.name}" ${what}: ${reason}${this.stderrSuffix()}`);
  }

  private stderrSuffix(): string {
    const tail = this.stderrTail.trim();
    return tail === '' ? '' : `\nIts last output:\n${tail}`;
  }
}
