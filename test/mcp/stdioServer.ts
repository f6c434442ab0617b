// An MCP server over stdio (the official SDK), for the end-to-end tests: `echo`, `picture`,
// `environment`, `fails`, `crash`. Its name is its first argument.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { testMcpServer } from './tools';

void testMcpServer(process.argv[2] ?? 'stdio-test').connect(new StdioServerTransport());
