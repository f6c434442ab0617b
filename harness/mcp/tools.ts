/**
 * The tools of the MCP test servers (real MCP servers, built with the official SDK), shared by the
 * stdio program and the loopback HTTP server the end-to-end tests start.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

/** A 1×1 transparent PNG. */
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

export function testMcpServer(name: string): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text back', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    ({ text }) => ({ content: [{ type: 'text', text: `${name} echoes: ${text}` }] }),
  );
  server.registerTool(
    'picture',
    { description: 'Returns an image and a text resource' },
    () => ({
      content: [
        { type: 'image', data: TINY_PNG, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'test://notes/readme.txt', mimeType: 'text/plain', text: 'a resource text' } },
      ],
    }),
  );
  server.registerTool(
    'environment',
    { description: 'Tells the value of TEST_MCP_VAR and its working folder' },
    () => ({ content: [{ type: 'text', text: `TEST_MCP_VAR=${process.env.TEST_MCP_VAR ?? '(unset)'} cwd=${process.cwd()}` }] }),
  );
  server.registerTool('fails', { description: 'A tool that reports an error' }, () => ({
    isError: true,
    content: [{ type: 'text', text: 'the tool failed on purpose' }],
  }));
  server.registerTool(
    'wait',
    { description: 'Waits (until cancelled)', inputSchema: { ms: z.number() } },
    async ({ ms }, extra) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          process.stderr.write('wait: cancelled by the client\n');
          resolve();
        });
      });
      return { content: [{ type: 'text', text: extra.signal.aborted ? 'cancelled' : `waited ${ms} ms` }] };
    },
  );
  server.registerTool('crash', { description: 'Crashes the server' }, () => {
    process.stderr.write('boom: the server crashed on purpose\n');
    process.exit(3);
  });
  return server;
}
