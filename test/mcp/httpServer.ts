/**
 * An MCP server over streamable HTTP on loopback (the official SDK, stateless: one server and
 * transport per request), for the end-to-end tests. It records the headers it was sent.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { testMcpServer } from './tools';

export class HttpMcpServer {
  readonly headers: IncomingHttpHeaders[] = [];
  private server: Server | undefined;

  async start(name: string): Promise<string> {
    this.server = createServer((req, res) => {
      this.headers.push(req.headers);
      const mcp = testMcpServer(name);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      void mcp.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/mcp`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
