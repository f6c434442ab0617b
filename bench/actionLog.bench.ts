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
 * Then files larger than 2 MB (10 and 50 MB), undone as a whole file from a copy in the storage:
 * the longest event-loop block while the log captures the file's text before (the copy started at
 * once, finished off the event loop, then hashed in slices) and while Undo checks the file (a
 * streamed hash) and copies the bytes back; against a plain `fs.copyFileSync` of the same file
 * (one block) and the `readFileSync` an in-memory snapshot would take.
 *
 * Knobs (environment): ACP_BENCH_REWRITE_MB (default 2), ACP_BENCH_REWRITE_REPS (5),
 * ACP_BENCH_LARGE_MB (default "10,50").
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { decodeText } from '../src/extension/review/model/actionHunks';
import { viewOf, type FileChange } from '../src/extension/review/model/actionLog';
import { planUndo, planWholeUndo } from '../src/extension/review/model/undoPlan';
import { ActionLogStore } from '../src/extension/review/actionLogStore';
import { fingerprintFile } from '../src/extension/review/largeFileCopy';
import { envNumber } from './support/knobs';

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
  await largeFileBench();
}

/** The longest event-loop block (ms) while `work` runs: the longest synchronous step, or the largest delay of a 1 ms timer. */
async function longestBlock(work: () => Promise<void>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await new Promise((r) => setTimeout(r, 20));
  histogram.reset();
  await work();
  await new Promise((r) => setTimeout(r, 5));
  histogram.disable();
  // The histogram's delays include its 1 ms resolution.
  return Math.max(0, histogram.max / 1e6 - 1);
}

/** Capture and Undo of a large file, each step's longest block. */
async function largeFileBench(): Promise<void> {
  const sizes = (process.env.ACP_BENCH_LARGE_MB ?? '10,50').split(',').map(Number).filter((n) => n > 0);
  const reps = envNumber('ACP_BENCH_REWRITE_REPS', 5);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-large-'));
  try {
    const store = new ActionLogStore(path.join(dir, 'storage'));
    for (const mb of sizes) {
      const file = path.join(dir, `big-${mb}.log`);
      const line = Buffer.from('a line of a large log file, long enough to be typical\r\n');
      const original = Buffer.alloc(mb * 1024 * 1024, line);
      const rewritten = Buffer.from(original.toString('latin1').replaceAll('a line', 'A LINE'), 'latin1');
      const copyBlocks: number[] = [];
      const readBlocks: number[] = [];
      const captureBlocks: number[] = [];
      const captureWall: number[] = [];
      const undoBlocks: number[] = [];
      const undoWall: number[] = [];
      for (let i = 0; i < reps; i++) {
        fs.writeFileSync(file, original);
        let started = performance.now();
        fs.copyFileSync(file, `${file}.plain`, fs.constants.COPYFILE_FICLONE);
        copyBlocks.push(performance.now() - started);
        fs.rmSync(`${file}.plain`);
        started = performance.now();
        fs.readFileSync(file);
        readBlocks.push(performance.now() - started);

        // Capture: what the tool call's arrival runs (a stat, the copy started), then the copy's end and its hash.
        let blob = '';
        started = performance.now();
        captureBlocks.push(
          await longestBlock(async () => {
            fs.statSync(file);
            const copy = store.copyLarge(file);
            blob = copy.blob;
            const done = await copy.done;
            if (!done.ok) throw new Error(done.reason);
          }),
        );
        captureWall.push(performance.now() - started);
        // The agent's rewrite, then Undo: the file checked against what the agent left, the bytes copied back.
        fs.writeFileSync(file, rewritten);
        const left = await fingerprintFile(file);
        if (left.kind !== 'file') throw new Error('the rewrite is gone');
        const change: FileChange = {
          id: 1,
          turn: 0,
          path: file,
          source: 'tool',
          before: { kind: 'large', size: original.length, blob },
          after: { kind: 'large', size: left.size, sha256: left.sha256 },
          toolCallIds: [],
          hunkStates: ['pending'],
        };
        started = performance.now();
        undoBlocks.push(
          await longestBlock(async () => {
            const now = await fingerprintFile(file);
            const plan = planWholeUndo(change, viewOf(change), now.kind === 'file' ? { ...now, dirty: false } : now);
            if (plan.action.type !== 'put' || !('blob' in plan.action.from)) throw new Error(`no undo: ${plan.refused}`);
            await fs.promises.copyFile(store.largePath(plan.action.from.blob), file);
          }),
        );
        undoWall.push(performance.now() - started);
        if (!fs.readFileSync(file).equals(original)) throw new Error('Undo did not put back the bytes before');
        store.dropLarge(blob);
      }
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const fmt = (xs: number[]): string => `${median(xs).toFixed(1)} ms (max ${Math.max(...xs).toFixed(1)})`;
      const base = median(copyBlocks);
      console.log(`${mb} MB file, whole-file undo from a copy in storage; median of ${reps}`);
      console.log(`  baseline, fs.copyFileSync (one block):    ${fmt(copyBlocks)}`);
      console.log(`  readFileSync (an in-memory snapshot):     ${fmt(readBlocks)} = ${(median(readBlocks) / base).toFixed(2)}×`);
      console.log(`  capture, longest block:                   ${fmt(captureBlocks)} = ${(median(captureBlocks) / base).toFixed(2)}× (done after ${fmt(captureWall)})`);
      console.log(`  Undo (hash check + copy back), longest:   ${fmt(undoBlocks)} = ${(median(undoBlocks) / base).toFixed(2)}× (done after ${fmt(undoWall)})`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
