/**
 * The parts of the MCP SDK a connection uses, in a module of their own: `connection.ts` imports it
 * on a server's first use (`await import('./sdk')`; esbuild keeps it in dist/agent.js but evaluates
 * it only then). The SDK's schemas and its JSON-schema validator (ajv) cost tens of milliseconds to
 * evaluate, which an agent whose sessions have no MCP servers, or that only replays, never pays.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
