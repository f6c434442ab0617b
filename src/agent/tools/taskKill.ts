import * as z from 'zod';
import type { TaskSnapshot } from '../tasks';
import { textBlock } from '../views';
import { describeTask } from './taskOutput';
import { ToolError, type ToolDefinition } from './types';

const args = z.object({
  task_id: z.string().min(1).describe('Id of the background task to stop (e.g. bg-1).'),
});
type TaskKillArgs = z.infer<typeof args>;

export const taskKillTool: ToolDefinition<TaskKillArgs, TaskSnapshot> = {
  name: 'task_kill',
  description: 'Stop a background task and everything it started.',
  args,
  // Stopping what the agent itself started needs no permission.
  permission: () => undefined,
  presentCall: (a) => ({ card: 'generic', title: `Stop ${a.task_id}`, kind: 'execute', rawInput: a }),
  async execute(a, ctx) {
    const snapshot = await ctx.tasks.kill(a.task_id);
    if (snapshot === undefined) throw new ToolError(`No background task ${a.task_id} in this session.`);
    return snapshot;
  },
  output: { render: (_a, v) => ({ isError: false, text: describeTask(v) }) },
  presentResult: (_a, outcome) => ({ card: 'generic', content: [textBlock(outcome.text)] }),
};
