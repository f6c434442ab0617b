/**
 * Streamed text through the extension into the Chat view, in the real VS Code extension host
 * (code-server + headless Chromium, harness/host/run-offline.mjs), against tool calls of the same
 * message count from the same agent in the same run (issue 15, goals 1 and 2).
 *
 * Builds the in-host module (bench/host/textStream.ts) and the storm agent (harness/agents/stormAgent.ts)
 * into out/bench/ with esbuild, launches the host, and reads the `BENCH {json}` lines it prints.
 */
import * as os from 'node:os';
import type { TextRun, TextScenarioName } from '../host/textStream';
import { median, num, ratio, table } from './stats';
import { buildHostBench, runHostBench, type HostBench } from '../support/hostBench';

const BENCH: HostBench = { host: 'textStream', agents: ['stormAgent'] };

export interface TextStreamOptions {
  /** session/update messages per run. */
  messages: number;
  /** Messages per second of the paced runs. */
  pace: number;
  /** Size of the streamed answer. */
  bytes: number;
  repetitions: number;
}

function runBench(options: TextStreamOptions): Promise<TextRun[]> {
  return runHostBench<TextRun>(BENCH, {
    timeout: '15m',
    env: {
      ACP_BENCH_TEXT_MESSAGES: String(options.messages),
      ACP_BENCH_TEXT_PACE: String(options.pace),
      ACP_BENCH_TEXT_BYTES: String(options.bytes),
      ACP_BENCH_TEXT_REPS: String(options.repetitions),
    },
    onRecord: (record) =>
      process.stdout.write(
        `  measured ${record.scenario}: ${num(record.settledMs)} ms, host CPU ${num(record.cpuMs)} ms, window CPU ${num(record.windowCpuMs)} ms (${record.windowCpuByProcess}), longest block ${num(record.maxBlockMs)} ms (CPU ${num(record.maxBlockCpuMs, 1)}, wait ${num(record.maxBlockWaitMs, 1)}; most CPU in a block ${num(record.maxCpuInBlockMs, 1)}), p99 ${num(record.p99Ms, 1)} ms, GC ${num(record.gcMs)} ms (longest ${num(record.maxGcMs)}), ${num(record.patches)} patches, ${num(record.sentKb)} KB sent in ${num(record.sentWrites)} writes, load ${num(record.load, 2)}\n`,
      ),
  });
}

/** Each scenario's baseline: tool calls of the same message count, at the same pace. */
const BASELINE: Record<TextScenarioName, TextScenarioName> = {
  'tool calls, flat out': 'tool calls, flat out',
  'tool calls, flat out, chat hidden': 'tool calls, flat out',
  'text, flat out, chat visible': 'tool calls, flat out',
  'text, flat out, chat hidden': 'tool calls, flat out',
  'tool calls, paced': 'tool calls, paced',
  'text, paced, chat visible': 'tool calls, paced',
  'text, paced, chat hidden': 'tool calls, paced',
  '1 MB answer, chat visible': 'tool calls, flat out',
  '1 MB answer, chat hidden': 'tool calls, flat out',
  'tool calls, flat out, loop off': 'tool calls, flat out, loop off',
  'text, flat out, chat visible, loop off': 'tool calls, flat out, loop off',
  'tool calls, paced, loop off': 'tool calls, paced, loop off',
  'text, paced, chat visible, loop off': 'tool calls, paced, loop off',
  '1 MB answer, chat visible, loop off': 'tool calls, flat out, loop off',
};

/** The scenarios measured with the window-lag loop on, and the same with it off (issue 29). */
const LOOP_PAIRS: readonly (readonly [TextScenarioName, TextScenarioName])[] = [
  ['tool calls, flat out', 'tool calls, flat out, loop off'],
  ['text, flat out, chat visible', 'text, flat out, chat visible, loop off'],
  ['tool calls, paced', 'tool calls, paced, loop off'],
  ['text, paced, chat visible', 'text, paced, chat visible, loop off'],
  ['1 MB answer, chat visible', '1 MB answer, chat visible, loop off'],
];

function report(runs: readonly TextRun[], options: TextStreamOptions): void {
  const of = (name: TextScenarioName) => runs.filter((r) => r.scenario === name && r.rep >= 0);
  const med = (name: TextScenarioName, pick: (r: TextRun) => number) => median(of(name).map(pick));
  const max = (name: TextScenarioName, pick: (r: TextRun) => number) => Math.max(...of(name).map(pick));
  // The worst run's longest block: the main thread's own CPU in it / its wait for a CPU.
  const worstBlock = (name: TextScenarioName) => {
    const worst = of(name).reduce((a, b) => (b.maxBlockMs > a.maxBlockMs ? b : a));
    return `${num(worst.maxBlockCpuMs, 1)} / ${num(worst.maxBlockWaitMs, 1)}`;
  };
  // ACP_BENCH_TEXT_ONLY may have left some out; a ratio needs its baseline in the run.
  const names = (Object.keys(BASELINE) as TextScenarioName[]).filter((name) => of(name).length > 0);
  const rows = names.map((name) => {
    const base = BASELINE[name];
    const same = name === base;
    return [
      name,
      num(med(name, (r) => r.messages)),
      num(med(name, (r) => r.settledMs)),
      same ? '1.00×' : of(base).length === 0 ? '–' : ratio(med(name, (r) => r.settledMs) / med(base, (r) => r.settledMs)),
      num(med(name, (r) => r.cpuMs)),
      same ? '1.00×' : of(base).length === 0 ? '–' : ratio(med(name, (r) => r.cpuMs) / med(base, (r) => r.cpuMs)),
      num(med(name, (r) => r.windowCpuMs)),
      num(max(name, (r) => r.maxBlockMs)),
      worstBlock(name),
      num(max(name, (r) => r.maxCpuInBlockMs), 1),
      num(max(name, (r) => r.p99Ms), 1),
      num(max(name, (r) => r.maxGcMs)),
      num(med(name, (r) => r.gcMs)),
      num(med(name, (r) => r.patches)),
      num(med(name, (r) => r.statuses)),
      num(med(name, (r) => r.sentKb)),
      num(med(name, (r) => r.sentWrites)),
      num(max(name, (r) => r.load), 2),
    ];
  });
  console.log(
    '\n' +
      table([
        ['scenario (medians; blocks: worst run)', 'messages', 'to settled ms', 'vs tool calls', 'host CPU ms', 'vs tool calls', 'window CPU ms', 'longest block ms', 'its CPU / wait ms', 'most CPU in a block ms', 'p99 ms', 'longest GC ms', 'GC ms', 'chat patches', 'statuses', 'sent KB', 'sent writes', 'load'],
        ...rows,
      ]),
  );
  console.log(`
- ${num(options.messages)} session/update messages per run: tool calls (${num(options.messages / 2.5)} calls of 2.5 messages, into the store,
  the Tool Calls tree and the chat's rows) against the same number of agent_message_chunks of the same sizes (one ever-growing
  message); "paced": ${num(options.pace)} messages/s. The 1 MB answer: ${num(options.bytes)} characters of markdown (headings,
  paragraphs, lists, code, tables) in ${num(options.messages)} chunks, flat out. Its ratio is to the tool calls flat out.
  "tool calls, flat out, chat hidden": the same storm with the ACP container hidden (no chat, no tree): the views' own share.
- "to settled": prompt → end_turn and the chat's and tree's last update; "host CPU": the extension host process over that span;
  "window CPU": the browser's processes over that span (the workbench and the webviews; they share the machine's cores with the host);
  "longest block" / "p99": event-loop delay of the extension host (bench/support/loopBlocks.ts), the worst of ${options.repetitions} runs;
  "its CPU / wait": the extension host's main thread in that block (Linux schedstat): its own CPU time, its time waiting for a CPU
  (the rest it slept, e.g. in a system call); "most CPU in a block": the most main-thread CPU of any block of those runs;
  "chat patches" / "statuses": messages the Chat view posted to its webview (none while hidden); "sent KB": what the extension
  host sent the window meanwhile, before code-server compresses it there, and in how many deflate writes; "GC": garbage-collection
  pauses of the extension host (the longest of all runs, the median of their sums); "load": 1-minute load average
  at the end of the run (this machine: ${os.cpus().length} cores).
- Issue 15's bars: longest block ≤ 50 ms and p99 ≤ 10 ms for each text scenario; text ≤ 1.0× tool calls of the same count.`);
  const pairs = LOOP_PAIRS.filter(([on, off]) => of(on).length > 0 && of(off).length > 0);
  if (pairs.length > 0) {
    console.log(
      '- The window-lag loop on vs off (issue 29; the same build, same run; longest block and p99 the worst run): ' +
        pairs
          .map(
            ([on, off]) =>
              `${on}: to settled ${ratio(med(on, (r) => r.settledMs) / med(off, (r) => r.settledMs))}, host CPU ${ratio(med(on, (r) => r.cpuMs) / med(off, (r) => r.cpuMs))}, ` +
              `window CPU ${ratio(med(on, (r) => r.windowCpuMs) / med(off, (r) => r.windowCpuMs))}, longest block ${num(max(on, (r) => r.maxBlockMs))} vs ${num(max(off, (r) => r.maxBlockMs))} ms, ` +
              `p99 ${num(max(on, (r) => r.p99Ms), 1)} vs ${num(max(off, (r) => r.p99Ms), 1)} ms, patches ${num(med(on, (r) => r.patches))} vs ${num(med(off, (r) => r.patches))}, ` +
              `last patch drawn ${ratio(med(on, (r) => r.drawnMs ?? NaN) / med(off, (r) => r.drawnMs ?? NaN))}, off the normal cadence ${num(med(on, (r) => r.behindMs))} ms`,
          )
          .join('; ') +
        '.',
    );
  }
}

export async function textStreamBench(options: TextStreamOptions): Promise<void> {
  console.log(`\n## Client: streamed text through the extension into the Chat view, against tool calls of the same message count`);
  await buildHostBench(BENCH);
  console.log(`VS Code host: ${options.repetitions} repetitions of each scenario after a warm-up (code-server + headless Chromium); load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}...`);
  const runs = await runBench(options);
  report(runs, options);
}
