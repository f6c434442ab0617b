// The MCP test server over stdio (harness/mcp/tools.ts), built next to the test agents so the
// integration suite can name it in a workspace's .vscode/mcp.json.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { testMcpServer } from '../mcp/tools';

void testMcpServer(process.argv[2] ?? 'stdio-test').connect(new StdioServerTransport());
