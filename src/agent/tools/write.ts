import * as path from 'node:path';
import * as z from 'zod';
import type { MutationFacts } from '../files/store';
import { overwriteDiff, type AppliedDiff } from '../hunks';
import { diffToMeta, mutationResultView } from './diffMeta';
import type { ToolDefinition } from './types';

const args = z.object({
  path: z.string().min(1).describe('File to write: absolute, or relative to the session folder.'),
  content: z.string().describe('The complete new content of the file.'),
});
type WriteArgs = z.infer<typeof args>;

interface WriteValue {
  facts: MutationFacts;
  applied: AppliedDiff;
}

export const writeTool: ToolDefinition<WriteArgs, WriteValue> = {
  name: 'write',
  description: 'Create a file, or replace its whole content. Parent folders are created. Prefer edit for changes to an existing file.',
  args,
  resolveArgs: (a, cwd) => ({ ...a, path: path.resolve(cwd, a.path) }),
  permission: () => 'edit',
  // The tool has no old content at call time: new-file style, the whole new content.
  presentCall: (a) => ({
    card: 'diff',
    title: `Write ${a.path}`,
    diffs: [{ path: a.path, oldText: null, newText: a.content }],
    locations: [{ path: a.path }],
  }),
  async execute(a, ctx) {
    const facts = await ctx.files.writeText(a.path, a.content);
    return { facts, applied: overwriteDiff(a.path, facts.before, facts.after) };
  },
  output: {
    render: (a, v) => ({
      isError: false,
      text: `${v.facts.created ? 'Created' : 'Wrote'} ${a.path} (${lineCount(v.facts.after)} lines).`,
    }),
    // The arguments already hold the new content; the meta adds only what they cannot.
    presentationMeta: (_a, v) => diffToMeta(v.applied),
  },
  presentResult: (a, outcome, meta) => mutationResultView(a.path, outcome, meta, a.content),
};

function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
