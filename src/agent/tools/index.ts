import { bashTool } from './bash';
import { editTool } from './edit';
import { readTool } from './read';
import { MCP_TOOL_NAME, mcpTool } from './mcp';
import { eraseTool, type Tool } from './registry';
import { taskKillTool } from './taskKill';
import { taskOutputTool } from './taskOutput';
import { todoTool } from './todo';
import { writeTool } from './write';

export type { Tool } from './registry';

/** Every tool the agent has; both brains call these same ones. */
export const TOOLS: readonly Tool[] = [
  eraseTool(readTool),
  eraseTool(writeTool),
  eraseTool(editTool),
  eraseTool(bashTool),
  eraseTool(taskOutputTool),
  eraseTool(taskKillTool),
  eraseTool(todoTool),
  eraseTool(mcpTool),
];

/** The tools a model is offered by name; MCP tools are offered one function each instead. */
export const MODEL_TOOLS: readonly Tool[] = TOOLS.filter((t) => t.name !== MCP_TOOL_NAME);

const byName = new Map(TOOLS.map((t) => [t.name, t]));

export function toolNamed(name: string): Tool | undefined {
  return byName.get(name);
}
