import * as path from 'node:path';
import * as z from 'zod';
import { fenced } from '../markdown';
import { textBlock } from '../views';
import { isInsideAny } from '../paths';
import { ToolError, type ToolDefinition } from './types';

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

const args = z.object({
  path: z.string().min(1).describe('File to read: absolute, or relative to the session folder.'),
  line: z.number().int().min(1).optional().describe('First line to read (1-based). Default 1.'),
  limit: z.number().int().min(1).optional().describe(`How many lines to read. Default ${DEFAULT_LIMIT}.`),
});
type ReadArgs = z.infer<typeof args>;

interface ReadValue {
  lines: string[];
  firstLine: number;
  totalLines: number;
}

export const readTool: ToolDefinition<ReadArgs, ReadValue> = {
  name: 'read',
  description: 'Read a text file. Returns its lines numbered from `line` (cat -n style).',
  args,
  resolveArgs: (a, cwd) => ({ ...a, path: path.resolve(cwd, a.path) }),
  // Like Claude Code: reading inside the session's folders is free; elsewhere the user is asked.
  permission: (a, scope) => (isInsideAny(a.path, scope.roots) ? undefined : 'read'),
  presentCall: (a) => ({
    card: 'generic',
    title: a.line !== undefined || a.limit !== undefined ? `Read ${a.path} (${lineRange(a)})` : `Read ${a.path}`,
    kind: 'read',
    rawInput: a,
    locations: [{ path: a.path, line: a.line ?? 1 }],
  }),
  async execute(a, ctx) {
    const file = await ctx.files.readText(a.path);
    if (file.kind === 'binary') {
      throw new ToolError(`${a.path} is binary or not UTF-8 text${file.size !== undefined ? ` (${file.size} bytes)` : ''}; not shown.`);
    }
    const all = file.text === '' ? [] : file.text.replace(/\n$/, '').split('\n');
    const firstLine = a.line ?? 1;
    if (firstLine > Math.max(all.length, 1)) throw new ToolError(`${a.path} has only ${all.length} lines.`);
    return { lines: all.slice(firstLine - 1, firstLine - 1 + (a.limit ?? DEFAULT_LIMIT)), firstLine, totalLines: all.length };
  },
  output: {
    render(_a, v) {
      if (v.totalLines === 0) return { isError: false, text: '(empty file)' };
      const numbered = v.lines.map((line, i) => `${v.firstLine + i}\t${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line}`);
      const next = v.firstLine + v.lines.length;
      const more = next <= v.totalLines ? `\n… ${v.totalLines - next + 1} more lines (read on with line=${next})` : '';
      return { isError: false, text: numbered.join('\n') + more };
    },
  },
  presentResult(_a, outcome) {
    if (outcome.isError) return { card: 'generic', content: [textBlock(outcome.text)] };
    // The "more lines" note is for the reader, not file content: it goes below the fence.
    const note = MORE_LINES.exec(outcome.text);
    const lines = note ? outcome.text.slice(0, note.index) : outcome.text;
    return { card: 'generic', content: [textBlock(note ? `${fenced(lines)}\n${note[1]}` : fenced(lines))] };
  },
};

const MORE_LINES = /\n(… \d+ more lines \(read on with line=\d+\))$/;

function lineRange(a: ReadArgs): string {
  const first = a.line ?? 1;
  return a.limit !== undefined ? `lines ${first}–${first + a.limit - 1}` : `from line ${first}`;
}
