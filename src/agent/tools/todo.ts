import type { PlanEntry } from '@agentclientprotocol/sdk';
import * as z from 'zod';
import { textBlock } from '../views';
import type { ToolDefinition } from './types';

const args = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1),
        status: z.enum(['pending', 'in_progress', 'completed']),
        priority: z.enum(['high', 'medium', 'low']).optional(),
      }),
    )
    .describe('The whole todo list (it replaces the previous one).'),
});
type TodoArgs = z.infer<typeof args>;

export const todoTool: ToolDefinition<TodoArgs, { done: number; total: number }> = {
  name: 'todo',
  description: 'Keep a todo list for multi-step work; the user sees it as the plan. Send the whole list each time.',
  args,
  permission: () => undefined,
  presentCall: (a) => ({ card: 'generic', title: 'Update todo list', kind: 'think', rawInput: a, content: [textBlock(checklist(a))] }),
  async execute(a, ctx) {
    const entries: PlanEntry[] = a.todos.map((t) => ({ content: t.content, status: t.status, priority: t.priority ?? 'medium' }));
    await ctx.plan(entries);
    return { done: a.todos.filter((t) => t.status === 'completed').length, total: a.todos.length };
  },
  output: { render: (_a, v) => ({ isError: false, text: `Todo list updated: ${v.done} of ${v.total} done.` }) },
  // Success keeps the checklist the call shows; only an error replaces it.
  presentResult: (_a, outcome) => (outcome.isError ? { card: 'generic', content: [textBlock(outcome.text)] } : { card: 'generic' }),
};

function checklist(a: TodoArgs): string {
  if (a.todos.length === 0) return '(empty todo list)';
  return a.todos
    .map((t) => (t.status === 'completed' ? `- [x] ${t.content}` : t.status === 'in_progress' ? `- [ ] ${t.content} (in progress)` : `- [ ] ${t.content}`))
    .join('\n');
}
