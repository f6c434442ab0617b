import { bashTool } from './bash';
import { editTool } from './edit';
import { readTool } from './read';
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
];

const byName = new Map(TOOLS.map((t) => [t.name, t]));

export function toolNamed(name: string): Tool | undefined {
  return byName.get(name);
}
