/**
 * The presentation meta of file mutations: the applied diff, persisted on the result event so a
 * replay reads the hunks back instead of recomputing them (it could not: the old text is gone).
 */
import * as z from 'zod';
import type { AppliedDiff } from '../hunks';
import type { JsonValue } from '../json';
import { textBlock, type DiffResultView, type GenericResultView } from '../views';
import type { ToolOutcome } from './types';

const fileDiff = z.object({ path: z.string(), oldText: z.string().nullable(), newText: z.string() });
const location = z.object({ path: z.string(), line: z.number().int().optional() });

const diffMeta = z.union([
  z.object({ diffs: z.array(fileDiff), locations: z.array(location) }),
  /** Shown whole; `newText` absent means "the content in the arguments" (a write's). */
  z.object({ wholeFile: z.object({ oldText: z.string().nullable(), newText: z.string().optional() }) }),
]);

/** `newText` is stored only when the arguments do not already hold it. */
export function diffToMeta(applied: AppliedDiff, newText?: string): JsonValue {
  if (applied.kind === 'hunks') {
    return {
      diffs: applied.diffs.map((d) => ({ path: d.path, oldText: d.oldText, newText: d.newText })),
      locations: applied.locations.map((l): JsonValue => (l.line !== undefined ? { path: l.path, line: l.line } : { path: l.path })),
    };
  }
  return { wholeFile: { oldText: applied.oldText, ...(newText !== undefined ? { newText } : {}) } };
}

/**
 * The result card of a mutation: its error, or the applied diff. Without readable meta (an old or
 * damaged log), the args-derived whole-file diff is the honest fallback.
 */
export function mutationResultView(
  filePath: string,
  outcome: ToolOutcome,
  meta: JsonValue | undefined,
  argsNewText: string,
): DiffResultView | GenericResultView {
  if (outcome.isError) return { card: 'generic', content: [textBlock(outcome.text)] };
  const parsed = diffMeta.safeParse(meta);
  if (parsed.success && 'diffs' in parsed.data) {
    return { card: 'diff', diffs: parsed.data.diffs, locations: parsed.data.locations };
  }
  const whole = parsed.success && 'wholeFile' in parsed.data ? parsed.data.wholeFile : { oldText: null };
  return {
    card: 'diff',
    diffs: [{ path: filePath, oldText: whole.oldText, newText: whole.newText ?? argsNewText }],
    locations: [{ path: filePath, line: 1 }],
  };
}
