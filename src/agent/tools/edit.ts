import * as path from 'node:path';
import * as z from 'zod';
import type { EditFacts } from '../files/store';
import { replacementDiff, type AppliedDiff } from '../hunks';
import { diffToMeta, mutationResultView } from './diffMeta';
import type { ToolDefinition } from './types';

const args = z.object({
  path: z.string().min(1).describe('File to edit: absolute, or relative to the session folder.'),
  old_string: z.string().describe('Exact text to replace (must occur once unless replace_all). Empty: create the file with new_string.'),
  new_string: z.string().describe('The replacement text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string. Default false.'),
});
type EditArgs = z.infer<typeof args>;

interface EditValue {
  facts: EditFacts;
  applied: AppliedDiff;
}

export const editTool: ToolDefinition<EditArgs, EditValue> = {
  name: 'edit',
  description: 'Replace exact text in a file. old_string must match the file exactly (including indentation) and be unique, or set replace_all.',
  args,
  resolveArgs: (a, cwd) => ({ ...a, path: path.resolve(cwd, a.path) }),
  permission: () => 'edit',
  // At call time only the snippet is known; the result replaces it with the applied hunks.
  presentCall: (a) => ({
    card: 'diff',
    title: a.replace_all ? `Edit ${a.path} (all occurrences)` : `Edit ${a.path}`,
    diffs: [{ path: a.path, oldText: a.old_string === '' ? null : a.old_string, newText: a.new_string }],
    locations: [{ path: a.path }],
  }),
  async execute(a, ctx) {
    const facts = await ctx.files.editText(a.path, a.old_string, a.new_string, a.replace_all ?? false);
    return { facts, applied: replacementDiff(a.path, facts.before, facts.after, facts.sites) };
  },
  output: {
    render: (a, v) => ({
      isError: false,
      text: v.facts.created
        ? `Created ${a.path}.`
        : `Edited ${a.path}: replaced ${v.facts.sites.length} occurrence${v.facts.sites.length === 1 ? '' : 's'}.`,
    }),
    presentationMeta: (_a, v) => diffToMeta(v.applied, v.facts.after),
  },
  presentResult: (a, outcome, meta) => mutationResultView(a.path, outcome, meta, a.new_string),
};
