/**
 * What each scripted command means: a tool call with its arguments, the demo tour, or a usage
 * message when the command is malformed. Paths stay as written; the tools resolve them against
 * the session folder.
 */
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import { splitArgs, type ScriptCommand } from './parse';

export type ScriptAction =
  | { kind: 'tool'; tool: string; args: Record<string, unknown> }
  | { kind: 'demo' }
  | { kind: 'mcp-list' }
  | { kind: 'mcp-call'; server: string; tool: string; arguments: Record<string, unknown> }
  | { kind: 'help' }
  | { kind: 'usage'; message: string };

interface CommandSpec {
  usage: string;
  description: string;
  hint?: string;
  action(command: ScriptCommand, args: string[]): ScriptAction | string;
}

const TODO_ITEM = /^\s*[-*]\s+\[( |x|X|~)\]\s+(.+)$/;

const SPECS: Record<string, CommandSpec> = {
  read: {
    usage: '/read PATH [LINE [LIMIT]]',
    description: 'Read a file (from LINE, LIMIT lines)',
    hint: 'PATH [LINE [LIMIT]]',
    action(_c, [path, line, limit]) {
      if (path === undefined) return 'give a path';
      const numbers = { line: positive(line), limit: positive(limit) };
      if (line !== undefined && numbers.line === undefined) return 'LINE must be a positive number';
      if (limit !== undefined && numbers.limit === undefined) return 'LIMIT must be a positive number';
      return { kind: 'tool', tool: 'read', args: { path, ...defined(numbers) } };
    },
  },
  write: {
    usage: '/write PATH, then one fenced block with the whole content',
    description: 'Create or overwrite a file with the fenced block that follows',
    hint: 'PATH + ```content```',
    action(c, [path]) {
      if (path === undefined || c.blocks.length !== 1) return 'give a path and exactly one fenced block';
      const block = c.blocks[0] ?? '';
      // A file's last line ends with a newline, as editors write it.
      return { kind: 'tool', tool: 'write', args: { path, content: block === '' ? '' : `${block}\n` } };
    },
  },
  edit: {
    usage: '/edit PATH [--all], then two fenced blocks: the old text and the new text',
    description: 'Replace the first fenced block by the second (--all: every occurrence)',
    hint: 'PATH [--all] + ```old``` ```new```',
    action(c, args) {
      const all = args.includes('--all');
      const [path] = args.filter((a) => a !== '--all');
      if (path === undefined || c.blocks.length !== 2) return 'give a path and exactly two fenced blocks (old, new)';
      return { kind: 'tool', tool: 'edit', args: { path, old_string: c.blocks[0], new_string: c.blocks[1], ...(all ? { replace_all: true } : {}) } };
    },
  },
  run: {
    usage: '/run COMMAND (or /run and a fenced block)',
    description: 'Run a shell command in a terminal',
    hint: 'COMMAND',
    action: (c) => shell(c, false),
  },
  'run-bg': {
    usage: '/run-bg COMMAND (or /run-bg and a fenced block)',
    description: 'Start a shell command in the background',
    hint: 'COMMAND',
    action: (c) => shell(c, true),
  },
  'task-output': {
    usage: '/task-output ID [WAIT_MS]',
    description: 'Show what a background task printed since last time',
    hint: 'ID [WAIT_MS]',
    action(_c, [id, wait]) {
      if (id === undefined) return 'give a task id, e.g. bg-1';
      const waitMs = wait === undefined ? undefined : Number.parseInt(wait, 10);
      if (waitMs !== undefined && !(waitMs >= 0)) return 'WAIT_MS must be a number of milliseconds';
      return { kind: 'tool', tool: 'task_output', args: { task_id: id, ...(waitMs !== undefined ? { wait_ms: waitMs } : {}) } };
    },
  },
  'task-kill': {
    usage: '/task-kill ID',
    description: 'Stop a background task',
    hint: 'ID',
    action: (_c, [id]) => (id === undefined ? 'give a task id, e.g. bg-1' : { kind: 'tool', tool: 'task_kill', args: { task_id: id } }),
  },
  todo: {
    usage: '/todo, then lines "- [ ] item", "- [x] done item" ("- [~] item" is in progress)',
    description: 'Set the todo list (shown as the plan)',
    action(c) {
      const todos = c.body.flatMap((line) => {
        const m = TODO_ITEM.exec(line);
        if (m === null) return [];
        const status = m[1] === ' ' ? 'pending' : m[1] === '~' ? 'in_progress' : 'completed';
        return [{ content: (m[2] ?? '').trim(), status }];
      });
      if (todos.length === 0) return 'give at least one item line such as "- [ ] write tests"';
      return { kind: 'tool', tool: 'todo', args: { todos } };
    },
  },
  mcp: {
    usage: '/mcp (list servers and tools), or /mcp SERVER TOOL and an optional fenced JSON block of arguments',
    description: "List the session's MCP servers and tools, or call one",
    hint: '[SERVER TOOL] + ```{"arg": "value"}```',
    action(c, [server, tool, ...rest]) {
      if (server === undefined) return { kind: 'mcp-list' };
      if (tool === undefined || rest.length > 0) return 'give a server and a tool, e.g. /mcp files read_file';
      const json = c.blocks[0];
      if (json === undefined || json.trim() === '') return { kind: 'mcp-call', server, tool, arguments: {} };
      let parsed: unknown;
      try {
        parsed = JSON.parse(json);
      } catch (error) {
        return `the fenced block is not JSON (${error instanceof Error ? error.message : String(error)})`;
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'the fenced block must be a JSON object of arguments';
      return { kind: 'mcp-call', server, tool, arguments: parsed as Record<string, unknown> };
    },
  },
  demo: {
    usage: '/demo',
    description: 'A tour of every card kind on the sample workspace',
    action: () => ({ kind: 'demo' }),
  },
  help: {
    usage: '/help',
    description: 'Show the commands',
    action: () => ({ kind: 'help' }),
  },
};

export function actionFor(command: ScriptCommand): ScriptAction {
  const spec = SPECS[command.name];
  if (spec === undefined) return { kind: 'usage', message: `Unknown command /${command.name}.\n\n${HELP_TEXT}` };
  const action = spec.action(command, splitArgs(command.argText));
  return typeof action === 'string' ? { kind: 'usage', message: `/${command.name}: ${action}.\nUsage: ${spec.usage}` } : action;
}

export const HELP_TEXT = [
  'This is the scripted agent: it follows commands, one per line (fenced blocks belong to the command above them; paths are absolute or relative to the session folder).',
  '',
  ...Object.values(SPECS).map((s) => `- \`${s.usage}\` — ${s.description}`),
].join('\n');

export const AVAILABLE_COMMANDS: AvailableCommand[] = Object.entries(SPECS).map(([name, spec]) => ({
  name,
  description: spec.description,
  ...(spec.hint !== undefined ? { input: { hint: spec.hint } } : {}),
}));

function shell(c: ScriptCommand, background: boolean): ScriptAction | string {
  const command = c.argText !== '' ? c.argText : (c.blocks[0] ?? '').trim();
  if (command === '') return 'give a command';
  return { kind: 'tool', tool: 'bash', args: { command, ...(background ? { run_in_background: true } : {}) } };
}

function positive(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const n = Number.parseInt(text, 10);
  return n >= 1 ? n : undefined;
}

function defined<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Partial<T>;
}
