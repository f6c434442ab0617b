/**
 * An MCP server on loopback (the official SDK), for the end-to-end tests: streamable HTTP at
 * `/mcp` (stateless: one server and transport per request) and the older SSE transport at `/sse`
 * (its messages posted to `/messages`). It records the headers it was sent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { testMcpServer } from './tools';

export class HttpMcpServer {
  readonly headers: IncomingHttpHeaders[] = [];
  private server: Server | undefined;
  private readonly sseSessions = new Map<string, SSEServerTransport>();

  /** Starts listening; returns the base URL (`…/mcp` and `…/sse` hang off it). */
  async start(name: string): Promise<string> {
    this.server = createServer((req, res) => {
      this.headers.push(req.headers);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        this.sseSessions.set(transport.sessionId, transport);
        res.on('close', () => this.sseSessions.delete(transport.sessionId));
        void testMcpServer(name).connect(transport);
        return;
      }
      if (url.pathname === '/messages' && req.method === 'POST') {
        const transport = this.sseSessions.get(url.searchParams.get('sessionId') ?? '');
        if (transport === undefined) {
          res.writeHead(404).end('no such SSE session');
          return;
        }
        void transport.handlePostMessage(req, res);
        return;
      }
      const mcp = testMcpServer(name);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      void mcp.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
