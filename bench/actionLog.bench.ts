/**
 * Issue 15, the large-diff case, in Node: the synchronous steps the action log runs on the extension
 * host when an agent rewrites every line of a file as large as the log keeps texts of (2 MB; larger
 * files are listed without undo), each one event-loop block, against a plain decode of the file's
 * two versions (what any look at the change costs at least).
 * - settle: the change's hunks when the agent is done with the file (`setAfter`), then kept for the
 *   tree, the chat and the lenses (before: computed once more by the first view, and the diff's
 *   bounded search alone took 80–100 ms before `editLengthExceeds` told a rewrite in ~5 ms);
 * - Undo All: the plan on the hunks the user saw (before: the hunks computed again, then the undo,
 *   which overflowed the stack past ~120,000 lines).
 *
 * Knobs (environment): ACP_BENCH_REWRITE_MB (default 2), ACP_BENCH_REWRITE_REPS (5).
 */
import { performance } from 'node:perf_hooks';
import { decodeText } from '../src/extension/core/actionHunks';
import { viewOf, type FileChange } from '../src/extension/core/actionLog';
import { planUndo } from '../src/extension/core/undoPlan';

const envNumber = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** Median and longest of `reps` timed runs of `step` (ms). */
function timed(reps: number, step: () => unknown): { median: number; max: number } {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const started = performance.now();
    step();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], max: times[times.length - 1] };
}

export default async function actionLogBench(): Promise<void> {
  const mb = envNumber('ACP_BENCH_REWRITE_MB', 2);
  const reps = envNumber('ACP_BENCH_REWRITE_REPS', 5);
  const lines: string[] = [];
  for (let size = 0, i = 0; size < mb * 1024 * 1024; i++) {
    const line = `const value${i} = compute(argument${i % 97}, "some padding to make a line");\n`;
    lines.push(line);
    size += line.length;
  }
  const beforeText = lines.join('');
  const afterText = beforeText.replaceAll('const value', 'let value');
  const change: FileChange = {
    id: 1,
    turn: 0,
    path: '/bench/rewrite.ts',
    source: 'fs',
    before: { kind: 'bytes', bytes: Buffer.from(beforeText) },
    after: { kind: 'bytes', bytes: Buffer.from(afterText) },
    toolCallIds: [],
    hunkStates: ['pending'],
  };
  const decode = timed(reps, () => {
    decodeText((change.before as { bytes: Uint8Array }).bytes);
    decodeText((change.after as { bytes: Uint8Array }).bytes);
  });
  const view = viewOf(change);
  const settle = timed(reps, () => viewOf(change));
  const current = { kind: 'text', text: afterText } as const;
  const undo = timed(reps, () => planUndo(change, current, undefined, view));
  const check = planUndo(change, current, undefined, view);
  if (check.action.type !== 'restore' || check.action.text !== beforeText) throw new Error('Undo All did not restore the text before');
  const undoWithHunksAgain = timed(reps, () => planUndo(change, current));
  const ms = (t: { median: number; max: number }): string => `${t.median.toFixed(0)} ms (max ${t.max.toFixed(0)})`;
  console.log(`${mb} MB rewrite, ${lines.length} lines, ${view.hunks.length} hunk(s) +${view.added} −${view.removed}; median of ${reps}`);
  console.log(`  baseline, decoding both versions:         ${ms(decode)}`);
  console.log(`  settle (the hunks, once):                 ${ms(settle)} = ${(settle.median / decode.median).toFixed(1)}×`);
  console.log(`  Undo All on the hunks seen:               ${ms(undo)} = ${(undo.median / decode.median).toFixed(1)}×`);
  console.log(`  Undo All computing the hunks again (was): ${ms(undoWithHunksAgain)} = ${(undoWithHunksAgain.median / decode.median).toFixed(1)}×`);
}
