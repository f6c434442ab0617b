/**
 * Issue 15's I/O figures in the real VS Code extension host (code-server + headless Chromium,
 * harness/host/run-offline.mjs): 100 MB through a client terminal and through a display terminal
 * against a bare pipe of the same bytes, and a 10 MB file's edit and diff opening against a plain
 * read of the file (plus what the `diff` library costs on it, here, off the host).
 *
 * Builds the in-host module (bench/host/ioFloods.ts) and the flood agent (harness/agents/floodAgent.ts)
 * into out/bench/ with esbuild, launches the host and reads the `BENCH {json}` lines it prints.
 */
import * as os from 'node:os';
import { performance } from 'node:perf_hooks';
import { structuredPatch } from 'diff';
import type { IoRun, IoScenario } from '../host/ioFloods';
import { median, num, ratio, table } from './stats';
import { buildHostBench, runHostBench, type HostBench } from '../support/hostBench';

const BENCH: HostBench = { host: 'ioFloods', agents: ['floodAgent'] };

export interface IoFloodsOptions {
  mb: number;
  fileMb: number;
  repetitions: number;
}

function runBench(options: IoFloodsOptions): Promise<IoRun[]> {
  return runHostBench<IoRun>(BENCH, {
    timeout: '15m',
    env: {
      ACP_BENCH_IO_MB: String(options.mb),
      ACP_BENCH_IO_FILE_MB: String(options.fileMb),
      ACP_BENCH_IO_REPS: String(options.repetitions),
    },
    onRecord: (record) =>
      process.stdout.write(`  measured ${record.scenario}: ${num(record.wallMs)} ms, host CPU ${num(record.cpuMs)} ms, block ${num(record.maxBlockMs)} ms, p99 ${num(record.p99Ms, 1)} ms, load ${num(record.load, 2)}\n`),
  });
}

/** The `diff` library on the 10 MB edit, in this process (what a worker would spend off the host). */
function diffLibraryMs(fileMb: number): number {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < fileMb * 2 ** 20; i++) {
    const line = `export const value${i} = compute(${i}, "some text of a generated module", ${i * 7});`;
    lines.push(line);
    size += line.length + 1;
  }
  const before = lines.join('\n') + '\n';
  const middle = Math.floor(lines.length / 2);
  lines[middle] += ' // edited';
  const after = lines.join('\n') + '\n';
  const start = performance.now();
  structuredPatch('a', 'b', before, after, '', '', { context: 3 });
  return performance.now() - start;
}

/** The diff open against VS Code's own diff of the same sizes, in the same run (host CPU, longest block). */
function diffVersusBaseline(open: readonly IoRun[], base: readonly IoRun[]): string {
  if (open.length === 0 || base.length === 0) return '';
  const cpu = median(open.map((r) => r.cpuMs)) / median(base.map((r) => r.cpuMs));
  const block = (runs: readonly IoRun[]) => runs.map((r) => num(r.maxBlockMs)).join(' / ');
  const kept = (runs: readonly IoRun[]) => runs.map((r) => num(r.heapRetainedMB, 1)).join(' / ');
  return `
  diff open vs diff baseline: host CPU ${ratio(cpu)}; longest block ${block(open)} vs ${block(base)} ms; heap kept ${kept(open)} vs ${kept(base)} MB.`;
}

/** The longest block over the runs as the host's main thread lived it: its own CPU / its wait for a CPU (ms). */
function longestMainThread(runs: readonly IoRun[]): string {
  if (runs.length === 0) return '';
  const longest = runs.reduce((a, b) => (b.maxBlockMs > a.maxBlockMs ? b : a));
  return `${num(longest.longestBlockMainRunMs)} / ${num(longest.longestBlockMainWaitMs)}`;
}

function report(runs: readonly IoRun[], options: IoFloodsOptions, diffMs: number): void {
  const of = (name: IoScenario) => runs.filter((r) => r.scenario === name);
  const med = (name: IoScenario, pick: (r: IoRun) => number) => median(of(name).map(pick));
  const maxOf = (name: IoScenario, pick: (r: IoRun) => number) => Math.max(...of(name).map(pick));
  const rows = (['pipe baseline', 'parse baseline', 'client terminal', 'display terminal', 'read baseline', 'open baseline', 'diff baseline', 'diff open'] as IoScenario[]).map((name) => {
    const base: IoScenario = name === 'read baseline' || name === 'open baseline' || name === 'diff baseline' || name === 'diff open' ? 'read baseline' : 'pipe baseline';
    return [
      name,
      `${num(of(name)[0]?.mb ?? 0)} MB`,
      num(med(name, (r) => r.wallMs)),
      name === base ? '1.00×' : ratio(med(name, (r) => r.wallMs) / med(base, (r) => r.wallMs)),
      num(med(name, (r) => r.cpuMs)),
      name === base ? '1.00×' : ratio(med(name, (r) => r.cpuMs) / med(base, (r) => r.cpuMs)),
      num(maxOf(name, (r) => r.maxBlockMs)),
      num(maxOf(name, (r) => r.p99Ms), 1),
      num(maxOf(name, (r) => r.maxBlockCpuMs)),
      longestMainThread(of(name)),
      num(maxOf(name, (r) => r.rssGrowthMB)),
      num(maxOf(name, (r) => r.heapGrowthMB)),
      num(maxOf(name, (r) => r.heapRetainedMB), 1),
      of(name)
        .map((r) => num(r.load, 2))
        .join(' / '),
    ];
  });
  console.log(
    '\n' +
      table([
        ['scenario (median; max over runs for blocks and memory)', 'size', 'wall ms', 'vs base', 'host CPU ms', 'vs base', 'max block ms', 'p99 ms', 'max block CPU ms', 'its main thread CPU / wait ms', 'peak RSS +MB', 'peak heap +MB', 'heap kept +MB', 'load (1 min)'],
        ...rows,
      ]),
  );
  const round = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms * 10) / 10);
  const details = (name: IoScenario) =>
    of(name)
      .map((r) =>
        JSON.stringify({
          ...r.detail,
          heapPeakSpacesMB: r.heapPeakSpacesMB,
          gc: r.gc,
          longestBlock: { ms: round(r.maxBlockMs), mainRunMs: round(r.longestBlockMainRunMs), mainWaitMs: round(r.longestBlockMainWaitMs) },
          cpuMs: r.machineCpuMs,
        }),
      )
      .join('\n    ');
  console.log(`
- pipe baseline: the extension host reads the same writer's ${num(options.mb)} MB through a pipe and drops it:
    ${details('pipe baseline')}
- parse baseline: the host reads the display terminal's messages (the same bytes as _meta.terminal_output in 32 KB pieces,
  as the agent sends them) through a pipe, splits, decodes and parses each and drops it: the display terminal's floor
  (its young garbage between two scavenges is V8's, not the extension's):
    ${details('parse baseline')}
- client terminal: the agent's terminal/create of that writer (no outputByteLimit: the client's default), polling
  terminal/output every 100 ms, shown live in a terminal panel; what the last terminal/output kept:
    ${details('client terminal')}
- display terminal: the agent streams the same bytes as _meta.terminal_output in 32 KB pieces, flat out:
    ${details('display terminal')}
- diff open: the agent reads the ${num(options.fileMb)} MB file through the client, changes one line, writes it back and
  reports the applied hunk; measured until the diff editor is open and both sides load:
    ${details('diff open')}
- open baseline: VS Code opening a fresh copy of the file (never opened before) in a plain editor (the workbench sends its text to the extension host:
  the floor of any editor showing a ${num(options.fileMb)} MB file).
- diff baseline: VS Code's own \`vscode.diff\` of two fresh files on disk (never opened before), the edited line apart, until both sides
  load in the host: the floor of a diff editor of that file (both sides' texts sent to the extension host; no extension serves either):
    ${details('diff baseline')}${diffVersusBaseline(of('diff open'), of('diff baseline'))}
- The diff library (structuredPatch of the whole ${num(options.fileMb)} MB before/after, off the host, this process): ${num(diffMs)} ms.
- "max block CPU ms": the same longest block counted in the host process's CPU time (what the host itself spent in it,
  without the time the loaded machine gave to other processes meanwhile; all its threads: GC helpers, libuv's pool, workers).
  longestBlock: the host's main thread in it (Linux schedstat): its time on a CPU and waiting in the runqueue for one.
- cpuMs: CPU used during the run by every process on the machine, by role (ms; Linux): the host's main thread and its other
  threads, its children (the agent; the writer, counted when the host reaps it), code-server's server (forwards what the host
  sends the window), the browser's renderer (the workbench: draws the terminal panel) and other browser processes, and the rest.
- arrivals (diff open, diff baseline): when each 10 MB document reached the extension host (VS Code sends an opened
  document's whole text to the host, one block to parse it) and in which event-loop turn; sidesInOneTurn: both in one.
- gc: the garbage collections during the run by kind (count, total and longest pause, ms): most long blocks of a flood.
- Memory: peak growth of the host's RSS and heap during the run (RSS sampled every 50 ms, heap every 250 ms; garbage not yet collected included),
  and the heap still held after it (after a full collection); heapPeakSpacesMB: which V8 heap spaces grew, at the heap's peak
  (new = young garbage and objects not yet promoted, old = promoted, large_object = single objects over 128 KB).
- Goal (issue 15): max block ≤ 50 ms and p99 ≤ 10 ms; host memory growth during a flood ≤ 2× outputByteLimit plus what the panel holds.`);
}

export async function ioFloodsBench(options: IoFloodsOptions): Promise<void> {
  console.log(`\n## I/O: ${num(options.mb)} MB terminal floods and a ${num(options.fileMb)} MB file's diff, in the real VS Code host`);
  await buildHostBench(BENCH);
  const diffMs = diffLibraryMs(options.fileMb);
  console.log(`VS Code host: ${options.repetitions} repetitions after a warm-up (load now ${num(os.loadavg()[0], 2)})...`);
  const runs = await runBench(options);
  report(runs, options, diffMs);
}
