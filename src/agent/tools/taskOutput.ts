import * as z from 'zod';
import { fenced } from '../markdown';
import type { TaskSnapshot } from '../tasks';
import { textBlock } from '../views';
import { ToolError, type ToolDefinition } from './types';

const MAX_WAIT_MS = 30_000;

const args = z.object({
  task_id: z.string().min(1).describe('Id of a background task, as returned by bash with run_in_background (e.g. bg-1).'),
  wait_ms: z.number().int().min(0).max(MAX_WAIT_MS).optional().describe('Wait up to this long for the task to exit first. Default 0.'),
});
type TaskOutputArgs = z.infer<typeof args>;

export const taskOutputTool: ToolDefinition<TaskOutputArgs, TaskSnapshot> = {
  name: 'task_output',
  description: 'Read what a background task printed since the last read, and whether it is still running.',
  args,
  permission: () => undefined,
  presentCall: (a) => ({ card: 'generic', title: `Output of ${a.task_id}`, kind: 'execute', rawInput: a }),
  async execute(a, ctx) {
    const snapshot = await ctx.tasks.read(a.task_id, a.wait_ms ?? 0, ctx.signal);
    if (snapshot === undefined) throw new ToolError(`No background task ${a.task_id} in this session.`);
    return snapshot;
  },
  output: { render: (_a, v) => ({ isError: false, text: describeTask(v) }) },
  presentResult: (_a, outcome) => ({ card: 'generic', content: [textBlock(outcome.text)] }),
};

/** A task's state line, then its new output in a console block. Shared with task_kill. */
export function describeTask(v: TaskSnapshot): string {
  const state = v.running
    ? `${v.id} is running: ${v.command}`
    : v.exit?.signal
      ? `${v.id} was stopped by ${v.exit.signal}: ${v.command}`
      : `${v.id} exited with code ${v.exit?.exitCode ?? 'unknown'}: ${v.command}`;
  const lost = v.lost > 0 ? `\n(${v.lost} earlier characters were dropped)` : '';
  const output = v.output === '' ? '\n(no new output)' : `\n${fenced(v.output, 'console')}`;
  return state + lost + output;
}
