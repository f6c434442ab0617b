// Runs INSIDE the VS Code extension host (harness/host/run-offline.mjs --tests out/bench/host/ioFloods.js):
// issue 15's I/O cases through the extension's real code paths, each beside a baseline measured in
// the same host, in the same run:
//   - pipe baseline: the host reads a Node writer's 100 MB stdout and drops it (a bare pipe);
//   - parse baseline: the host reads the display flood's JSON-RPC lines from a pipe, decodes and parses
//     each and drops it (what any client must do with those messages: the display terminal's floor);
//   - client terminal: an agent's `terminal/create` of the same writer, polling `terminal/output`;
//   - display terminal: an agent streaming the same bytes as `_meta.terminal_output`;
//   - read baseline: a plain read + UTF-8 decode of a 10 MB file;
//   - open baseline: VS Code opening a fresh copy of that file in an editor (its text sent to the extension host);
//   - diff baseline: VS Code's own `vscode.diff` of two fresh copies on disk, the edited line apart (both sides sent to the host);
//   - diff open: an agent's edit of that file through the client (`fs/*`), then its diff editor opening.
// Built and launched by bench/client/ioFloodsBench.ts; prints one `BENCH {json}` line per run and
// `BENCH-DONE` at the end.
//
// Environment (the launcher's environment reaches the extension host):
//   ACP_BENCH_IO_MB         terminal flood size in MiB (default 100)
//   ACP_BENCH_IO_FILE_MB    size of the edited file in MiB (default 10)
//   ACP_BENCH_IO_REPS       repetitions (default 2)
//   ACP_BENCH_PROFILE       a folder: write a CPU profile of the extension host per run there
//   ACP_BENCH_IO_ONLY       comma-separated scenario names to run (default: all), e.g. "pipe baseline,client terminal"
//   ACP_BENCH_HEAP_SNAPSHOT a folder: write a heap snapshot of the extension host after each run there
//   ACP_BENCH_TRACE_GC=1    V8's --trace-gc in the host: one line per collection (heap before → after, pause, why)
//                           in code-server's log (.cache/logs/code-server-*.log), not in the bench's output
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance, PerformanceObserver, constants as perfConstants, type PerformanceEntry } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as vscode from 'vscode';
import type { AcpNativeApi, RenderedToolCall } from '../../src/extension/api/api';
import { startLoopBlocks } from '../support/loopBlocks';
import { startMainThreadBlocks } from '../support/mainThreadBlocks';
import { activateWithTestAgent, deflatedBytes, deflateWrites, profiler } from '../support/inHost';
import { closeAllEditors, diffTabs } from '../../harness/inHost/extension';
import { waitFor as poll, sleep } from '../../harness/inHost/wait';
import { floodMessagesWriterScript, floodWriterScript } from '../../harness/agents/lib/floodLines';

export type IoScenario = 'pipe baseline' | 'parse baseline' | 'client terminal' | 'display terminal' | 'read baseline' | 'open baseline' | 'diff baseline' | 'diff open';

export interface IoRun {
  readonly rep: number;
  readonly scenario: IoScenario;
  readonly mb: number;
  /** Start → done (the turn ended and what it shows is on screen). */
  readonly wallMs: number;
  /** CPU time of the extension host process over the same span. */
  readonly cpuMs: number;
  readonly maxBlockMs: number;
  readonly p99Ms: number;
  /**
   * The longest block counted in CPU time of the host process rather than wall time: on a loaded
   * machine a wall-clock block also counts the time the OS gave the CPU to other processes.
   */
  readonly maxBlockCpuMs: number;
  /**
   * The longest block's main-thread time on a CPU and waiting in the runqueue for one (Linux
   * schedstat; elsewhere the process's CPU and no wait): what the event loop itself did in it, and
   * how long the loaded machine kept it from running.
   */
  readonly longestBlockMainRunMs: number;
  readonly longestBlockMainWaitMs: number;
  /** CPU used during the run by every process on the machine, by role (see machineCpuProbe), ms. */
  readonly machineCpuMs: Record<string, number>;
  /** Peak growth over the span (RSS sampled every 50 ms, heap every 250 ms), MB. */
  readonly rssGrowthMB: number;
  readonly heapGrowthMB: number;
  /** Heap still held after the run, after a full garbage collection, MB. */
  readonly heapRetainedMB: number;
  /** At the heap's peak: growth of each V8 heap space (new, old, large objects...), MB: where the peak is. */
  readonly heapPeakSpacesMB: Record<string, number>;
  /**
   * Garbage collections during the run, by kind: count, total and longest pause (ms), and why
   * (V8's flags: e.g. "external memory" when ArrayBuffers outside the heap forced it).
   */
  readonly gc: Record<string, { count: number; totalMs: number; maxMs: number; why?: Record<string, number> }>;
  /** The machine's 1-minute load average at the end. */
  readonly load: number;
  /** Scenario-specific facts (what terminal/output kept, what the diff shows). */
  readonly detail?: Record<string, unknown>;
}


/** Polled every 10 ms: what it waits for ends the measured span. */
const waitFor = <T>(what: string, probe: () => T | undefined): Promise<T> => poll(what, probe, { timeoutMs: 120_000, intervalMs: 10 });


v8.setFlagsFromString('--expose-gc');
if (process.env.ACP_BENCH_TRACE_GC === '1') v8.setFlagsFromString('--trace-gc');
/** A full garbage collection (this module is the benchmark, loaded in the host for it alone). */
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * How much CPU the host process used between two ticks of a 10 ms interval: the CPU share of a
 * block (all the process's threads, so an upper bound of its main thread's: V8's GC helpers, libuv's
 * pool deflating code-server's messages and the JSON worker run beside it). The main thread's own
 * share of the longest block is `startMainThreadBlocks`'s.
 */
function cpuBlockProbe(): { stop(): number } {
  let lastWall = performance.now();
  let lastCpu = process.cpuUsage();
  let max = 0;
  const tick = () => {
    const wall = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    max = Math.max(max, Math.min(wall - lastWall, (cpu.user + cpu.system) / 1000));
    lastWall = wall;
    lastCpu = process.cpuUsage();
  };
  const timer = setInterval(tick, 10);
  return {
    stop() {
      tick();
      clearInterval(timer);
      return max;
    },
  };
}

/** CPU time (ms) of every thread of a process, from Linux's schedstat (ns, exact); undefined once it is gone. */
function threadsCpuMs(pid: number | 'self'): Map<string, number> | undefined {
  try {
    const threads = new Map<string, number>();
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        threads.set(tid, Number(fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1').split(' ')[0]) / 1e6);
      } catch {
        // The thread ended meanwhile.
      }
    }
    return threads;
  } catch {
    return undefined;
  }
}

interface ProcessInfo {
  readonly ppid: number;
  readonly cmdline: string;
  /** CPU of its children it reaped (ms, 10 ms ticks): a writer that exited during the run. */
  readonly reapedMs: number;
  readonly cpuMs: number;
}

/** Every process on the machine with its CPU so far (Linux; empty elsewhere). */
function processesNow(): Map<number, ProcessInfo> {
  const processes = new Map<number, ProcessInfo>();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return processes;
  }
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
      // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime cutime cstime.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const threads = threadsCpuMs(Number(pid));
      if (!threads) continue;
      let cpuMs = 0;
      for (const ms of threads.values()) cpuMs += ms;
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ').trim();
      processes.set(Number(pid), { ppid: Number(fields[1]), cmdline, reapedMs: (Number(fields[13]) + Number(fields[14])) * 10, cpuMs });
    } catch {
      // The process ended meanwhile.
    }
  }
  return processes;
}

/**
 * The CPU every process on the machine used during a run, by role: the extension host's main
 * thread and its other threads, its children (the agent, and the writer: reaped when it exits, so
 * counted from the host's children's time), code-server's server (the host's parent: it forwards
 * what the host sends the window), the browser's renderer (the workbench, which draws the terminal
 * panel) and its other processes, and everything else (other work on the machine). On 2 cores,
 * what the others use is time the host may wait for a CPU.
 */
function machineCpuProbe(): { stop(): Record<string, number> } {
  const mainBefore = threadsCpuMs('self')?.get(String(process.pid)) ?? 0;
  const hostBefore = process.cpuUsage();
  const before = processesNow();
  return {
    stop() {
      const after = processesNow();
      const mainMs = (threadsCpuMs('self')?.get(String(process.pid)) ?? 0) - mainBefore;
      // The whole process from getrusage: threads that ended meanwhile included.
      const hostUsed = process.cpuUsage(hostBefore);
      const hostMs = (hostUsed.user + hostUsed.system) / 1000;
      const used: Record<string, number> = {};
      const add = (role: string, ms: number) => (used[role] = Math.round(((used[role] ?? 0) + ms) * 10) / 10);
      const host = process.pid;
      const server = process.ppid;
      const browserRole = (cmdline: string) => {
        const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
        return type === 'renderer' ? 'browser renderer' : type === 'gpu-process' ? 'browser gpu' : type ? 'browser other' : 'browser main';
      };
      for (const [pid, now] of after) {
        const then = before.get(pid);
        const ms = now.cpuMs - (then?.cpuMs ?? 0);
        if (pid === host) {
          add('host main thread', mainMs);
          add('host other threads', hostMs - mainMs);
          add('host children (agent, writer)', now.reapedMs - (then?.reapedMs ?? 0));
        } else if (now.ppid === host) add('host children (agent, writer)', ms);
        else if (pid === server) add('code-server server', ms);
        else if (/chrom/.test(now.cmdline)) add(browserRole(now.cmdline), ms);
        else add('other processes', ms);
      }
      return used;
    },
  };
}

/** Peak memory growth while it runs, and what the heap still holds after a full collection. */
function memoryProbe(): { stop(): { rssGrowthMB: number; heapGrowthMB: number; heapRetainedMB: number; heapPeakSpacesMB: Record<string, number> } } {
  collectGarbage();
  const before = process.memoryUsage();
  const spaces = () => new Map(v8.getHeapSpaceStatistics().map((space) => [space.space_name.replace(/_space$/, ''), space.space_used_size]));
  const spacesBefore = spaces();
  let spacesAtPeak = spacesBefore;
  let rss = before.rss;
  let heap = before.heapUsed;
  let ticks = 0;
  // The RSS is cheap to read; the heap's statistics cost ~1 ms with a big heap: less often.
  const sample = () => {
    rss = Math.max(rss, process.memoryUsage.rss());
    if (ticks++ % 5 !== 0) return;
    const used = process.memoryUsage().heapUsed;
    if (used > heap) {
      heap = used;
      spacesAtPeak = spaces();
    }
  };
  const timer = setInterval(sample, 50);
  return {
    stop() {
      sample();
      clearInterval(timer);
      collectGarbage();
      const after = process.memoryUsage().heapUsed;
      const heapPeakSpacesMB: Record<string, number> = {};
      for (const [name, used] of spacesAtPeak) {
        const grown = (used - (spacesBefore.get(name) ?? 0)) / 2 ** 20;
        if (Math.abs(grown) >= 0.5) heapPeakSpacesMB[name] = Math.round(grown * 10) / 10;
      }
      return { rssGrowthMB: (rss - before.rss) / 2 ** 20, heapGrowthMB: (heap - before.heapUsed) / 2 ** 20, heapRetainedMB: (after - before.heapUsed) / 2 ** 20, heapPeakSpacesMB };
    },
  };
}

const GC_KINDS: Record<number, string> = {
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

const GC_FLAGS: [number, string][] = [
  [perfConstants.NODE_PERFORMANCE_GC_FLAGS_FORCED, 'forced'],
  [perfConstants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY, 'external memory'],
  [perfConstants.NODE_PERFORMANCE_GC_FLAGS_ALL_AVAILABLE_GARBAGE, 'all available garbage'],
  [perfConstants.NODE_PERFORMANCE_GC_FLAGS_SCHEDULE_IDLE, 'schedule idle GC'],
  [perfConstants.NODE_PERFORMANCE_GC_FLAGS_CONSTRUCT_RETAINED, 'construct retained'],
  [perfConstants.NODE_PERFORMANCE_GC_FLAGS_SYNCHRONOUS_PHANTOM_PROCESSING, 'synchronous phantom processing'],
];

/** The garbage collections while it runs (what most long blocks of a flood are), by kind. */
function gcProbe(): { stop(): IoRun['gc'] } {
  const byKind: IoRun['gc'] = {};
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as { detail?: { kind?: number; flags?: number } }).detail;
      const kind = detail?.kind ?? -1;
      const name = GC_KINDS[kind] ?? `kind ${kind}`;
      const stats = (byKind[name] ??= { count: 0, totalMs: 0, maxMs: 0 });
      stats.count++;
      stats.totalMs = Math.round((stats.totalMs + entry.duration) * 10) / 10;
      stats.maxMs = Math.max(stats.maxMs, Math.round(entry.duration * 10) / 10);
      for (const [flag, why] of GC_FLAGS) {
        if (((detail?.flags ?? 0) & flag) !== 0) (stats.why ??= {})[why] = (stats.why[why] ?? 0) + 1;
      }
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      observer.disconnect();
      return byKind;
    },
  };
}

async function measure(rep: number, scenario: IoScenario, mb: number, run: () => Promise<Record<string, unknown> | undefined>): Promise<IoRun> {
  await sleep(300);
  const profile = await profiler('io', `${rep}-${scenario}`);
  const memory = memoryProbe();
  // Reading every process's /proc takes a few ms: done outside the block probes' span (and after
  // the memory probe's full collection).
  const machine = machineCpuProbe();
  const blocks = startLoopBlocks();
  const cpuBlocks = cpuBlockProbe();
  const mainThread = startMainThreadBlocks();
  const gc = gcProbe();
  const sentBefore = deflatedBytes();
  const writesBefore = deflateWrites();
  const cpu = process.cpuUsage();
  const start = performance.now();
  const detail = await run();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const loop = blocks.stop();
  const maxBlockCpuMs = cpuBlocks.stop();
  const main = mainThread.stop();
  const collections = gc.stop();
  const machineCpuMs = machine.stop();
  const sent = { sentKB: Math.round((deflatedBytes() - sentBefore) / 1024), sentWrites: deflateWrites() - writesBefore };
  await profile.stop();
  const grown = memory.stop();
  // ACP_BENCH_HEAP_SNAPSHOT=DIR: the host's heap after the run (what "heap kept" is made of).
  const snapshots = process.env.ACP_BENCH_HEAP_SNAPSHOT;
  if (snapshots) v8.writeHeapSnapshot(path.join(snapshots, `io-${rep}-${scenario.replace(/\W+/g, '-')}.heapsnapshot`));
  return {
    rep,
    scenario,
    mb,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    maxBlockMs: loop.maxMs,
    p99Ms: loop.p99Ms,
    maxBlockCpuMs,
    longestBlockMainRunMs: main.longestCpuMs,
    longestBlockMainWaitMs: main.longestWaitMs,
    machineCpuMs,
    ...grown,
    gc: collections,
    load: os.loadavg()[0],
    detail: { ...detail, ...sent },
  };
}

/** The baseline: the same writer's output read through a pipe by the host and dropped. */
function barePipe(mb: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', floodWriterScript(mb)], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('error', reject);
    child.on('close', () => resolve({ bytes }));
  });
}

/**
 * The display terminal's floor: the same messages the flood agent sends, read through a pipe,
 * split into lines, each decoded and parsed (as the extension does: one string and one
 * `JSON.parse` per line), then dropped.
 */
function parsedPipe(mb: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', floodMessagesWriterScript(mb)], { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['ignore', 'pipe', 'ignore'] });
    let messages = 0;
    let dataChars = 0;
    let carried: Buffer[] = [];
    const parse = (line: string) => {
      const message = JSON.parse(line) as { params: { update: { _meta: { terminal_output: { data: string } } } } };
      dataChars += message.params.update._meta.terminal_output.data.length;
      messages++;
    };
    child.stdout.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        if (carried.length > 0) {
          carried.push(chunk.subarray(start, newline));
          parse(Buffer.concat(carried).toString('utf8'));
          carried = [];
        } else {
          parse(chunk.toString('utf8', start, newline));
        }
        start = newline + 1;
      }
      if (start < chunk.length) carried.push(chunk.subarray(start));
    });
    child.on('error', reject);
    child.on('close', () => resolve({ messages, dataChars }));
  });
}

function lastCall(api: AcpNativeApi): RenderedToolCall | undefined {
  return api.toolCalls().at(-1);
}

/** The prompt's turn, then until its terminal panel shows the exit line (everything delivered). */
async function terminalTurn(api: AcpNativeApi, prompt: string): Promise<Record<string, unknown>> {
  const refreshes = api.stats().treeRefreshes;
  const posted = api.chatMessagesPosted();
  const stop = await api.prompt(prompt);
  if (stop !== 'end_turn') throw new Error(`${prompt}: stop reason ${stop}`);
  // The panel's text (up to 1 MB, joined when read) is read only once the command ended: reading
  // it every 10 ms of the flood made the probe a cost of its own that the baseline does not pay.
  const call = await waitFor('the exit line in the panel', () => {
    const last = lastCall(api);
    return last?.terminal?.exit && /\[exit code 0\]/.test(last.terminal.output) ? last : undefined;
  });
  const rendered = call.terminal?.output ?? '';
  return {
    ...(typeof call.rawOutput === 'object' && call.rawOutput !== null ? (call.rawOutput as Record<string, unknown>) : {}),
    renderedChars: rendered.length,
    renderedSkipNote: /of output not shown/.test(rendered),
    treeRefreshes: api.stats().treeRefreshes - refreshes,
    chatPatches: api.chatMessagesPosted().patch - posted.patch,
    chatStatus: api.chatMessagesPosted().status - posted.status,
  };
}

function diffTabOf(file: string): vscode.TabInputTextDiff | undefined {
  return diffTabs().find((tab) => tab.input.modified.fsPath === file)?.input;
}

/** A 10 MB source file: lines of code-like text (`edited`: its middle line changed as the flood agent's edit changes it). */
function writeBigFile(file: string, mb: number, edited = false): void {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < mb * 2 ** 20; i++) {
    const line = `export const value${i} = compute(${i}, "some text of a generated module", ${i * 7});`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push('');
  if (edited) lines[Math.floor(lines.length / 2)] += ' // edited';
  fs.writeFileSync(file, lines.join('\n'));
}

async function closeEditors(): Promise<void> {
  await closeAllEditors();
  await sleep(200);
}

/** A document's length in characters without joining its lines (`getText()` is a 10 MB join no user pays for). */
function charsOf(document: vscode.TextDocument): number {
  return document.offsetAt(document.lineAt(document.lineCount - 1).range.end);
}

/** The extension host's GC pauses while it runs: the longest, its kind, and their sum. */
function gcPauses(): { stop(): { gcMaxMs: number; gcMaxKind: string; gcTotalMs: number } } {
  const kinds: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
  let longest: PerformanceEntry | undefined;
  let total = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      total += entry.duration;
      if (!longest || entry.duration > longest.duration) longest = entry;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      observer.disconnect();
      const kind = (longest as { detail?: { kind?: number } } | undefined)?.detail?.kind;
      return { gcMaxMs: Math.round(longest?.duration ?? 0), gcMaxKind: kind === undefined ? '' : (kinds[kind] ?? String(kind)), gcTotalMs: Math.round(total) };
    },
  };
}

/**
 * When each document reached the extension host during a run (ms from its start) and in which
 * event-loop turn: VS Code sends an opened document's whole text to the host, and two documents
 * arriving in one turn are parsed in one block.
 */
function documentArrivals(): { stop(): { arrivals: string[]; sidesInOneTurn: boolean } } {
  const start = performance.now();
  // A turn is counted only when a document arrives: a new one unless no check (setImmediate) ran since the last.
  let turn = 0;
  let turnOpen = false;
  const seen: { scheme: string; at: number; turn: number }[] = [];
  const listener = vscode.workspace.onDidOpenTextDocument((doc) => {
    if (doc.lineCount <= 1000) return;
    if (!turnOpen) {
      turn++;
      turnOpen = true;
      setImmediate(() => (turnOpen = false));
    }
    seen.push({ scheme: doc.uri.scheme, at: performance.now() - start, turn });
  });
  return {
    stop() {
      listener.dispose();
      return { arrivals: seen.map((s) => `${s.scheme} at ${Math.round(s.at)} ms, turn ${s.turn}`), sidesInOneTurn: seen.length === 2 && seen[0].turn === seen[1].turn };
    },
  };
}

/** The agent's edit of the file, until its diff editor is open with both sides loaded in the host. */
async function diffOpen(api: AcpNativeApi, file: string): Promise<Record<string, unknown>> {
  const gc = gcPauses();
  const arrivals = documentArrivals();
  const stop = await api.prompt(`edit ${file}`);
  if (stop !== 'end_turn') throw new Error(`edit: stop reason ${stop}`);
  const input = await waitFor('the diff editor', () => diffTabOf(file));
  const [left, right] = await Promise.all([vscode.workspace.openTextDocument(input.original), vscode.workspace.openTextDocument(input.modified)]);
  // What the extension keeps of the before side beside VS Code's document of it.
  const keptBeforeChars = api.stats().kept.diffBeforeChars;
  return { leftChars: charsOf(left), rightChars: charsOf(right), leftScheme: input.original.scheme, keptBeforeChars, ...gc.stop(), ...arrivals.stop() };
}

/** VS Code's own diff editor on two files on disk, until both sides are loaded in the host. */
async function plainDiff(before: string, after: string): Promise<Record<string, unknown>> {
  const gc = gcPauses();
  const arrivals = documentArrivals();
  await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(before), vscode.Uri.file(after), 'plain diff', { preview: true, preserveFocus: true });
  const input = await waitFor('the diff editor', () => diffTabOf(after));
  const [left, right] = await Promise.all([vscode.workspace.openTextDocument(input.original), vscode.workspace.openTextDocument(input.modified)]);
  return { leftChars: charsOf(left), rightChars: charsOf(right), leftScheme: input.original.scheme, ...gc.stop(), ...arrivals.stop() };
}

export async function run(): Promise<void> {
  const mb = Number(process.env.ACP_BENCH_IO_MB ?? 100);
  const fileMb = Number(process.env.ACP_BENCH_IO_FILE_MB ?? 10);
  const reps = Number(process.env.ACP_BENCH_IO_REPS ?? 2);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!root) throw new Error('no workspace folder');
  const { api, stop } = await activateWithTestAgent({ name: 'flood', file: 'floodAgent' }, { 'acpNative.permissions.autoApprove': 'edits' });
  console.log(`BENCH-INFO ${JSON.stringify({ vscode: vscode.version, node: process.versions.node, mb, fileMb, reps, cpus: os.cpus().length })}`);

  // Plain text: a .ts file would start the TypeScript extension's server on it, in the same host,
  // and its cost (sending 10 MB to tsserver) is not the client's. A new file each repetition: a
  // document VS Code still holds from the previous one would not be sent to the host again.
  const bigFileOf = (rep: number, use: string) => path.join(root, `big-generated-${use}-${rep}.txt`);
  const bigFiles: string[] = [];
  try {
    await api.newSession();
    // Warm-up: agent start, JIT of the paths measured.
    await barePipe(4);
    await parsedPipe(4);
    await terminalTurn(api, 'client 4');
    await terminalTurn(api, 'display 4');
    const emit = (record: IoRun) => console.log(`BENCH ${JSON.stringify(record)}`);
    const only = process.env.ACP_BENCH_IO_ONLY?.split(',').map((name) => name.trim());
    const wanted = (scenario: IoScenario) => !only || only.includes(scenario);
    for (let rep = 0; rep < reps; rep++) {
      const terminals: [IoScenario, () => Promise<Record<string, unknown>>][] = [
        ['pipe baseline', () => barePipe(mb)],
        ['parse baseline', () => parsedPipe(mb)],
        ['client terminal', () => terminalTurn(api, `client ${mb}`)],
        ['display terminal', () => terminalTurn(api, `display ${mb}`)],
      ];
      if (rep % 2 === 1) terminals.reverse();
      for (const [scenario, body] of terminals) {
        if (!wanted(scenario)) continue;
        await vscode.commands.executeCommand('workbench.action.terminal.killAll');
        emit(await measure(rep, scenario, mb, body));
      }
      if (!wanted('read baseline') && !wanted('diff open') && !wanted('open baseline') && !wanted('diff baseline')) continue;
      const bigFile = bigFileOf(rep, 'edit');
      const openedFile = bigFileOf(rep, 'open');
      const diffFiles = [bigFileOf(rep, 'diff-before'), bigFileOf(rep, 'diff-after')] as const;
      bigFiles.push(bigFile, openedFile, ...diffFiles);
      writeBigFile(bigFile, fileMb);
      writeBigFile(openedFile, fileMb);
      writeBigFile(diffFiles[0], fileMb);
      writeBigFile(diffFiles[1], fileMb, true);
      await closeEditors();
      emit(
        await measure(rep, 'read baseline', fileMb, async () => {
          const text = new TextDecoder().decode(await fs.promises.readFile(bigFile));
          return { chars: text.length };
        }),
      );
      emit(await measure(rep, 'diff open', fileMb, () => diffOpen(api, bigFile)));
      await closeEditors();
      await sleep(1000);
      // What VS Code itself costs the host when any editor opens the file: it sends the document's
      // text to the extension host (the diff editor does so for both of its sides).
      emit(
        await measure(rep, 'open baseline', fileMb, async () => {
          const editor = await vscode.window.showTextDocument(vscode.Uri.file(openedFile), { preview: true });
          return { chars: charsOf(editor.document) };
        }),
      );
      await closeEditors();
      if (wanted('diff baseline')) {
        await sleep(1000);
        // The floor of any diff editor here: VS Code's own diff of two files it reads itself (no
        // extension serves either side), measured as the diff open is, until both sides load.
        emit(await measure(rep, 'diff baseline', fileMb, () => plainDiff(diffFiles[0], diffFiles[1])));
        await closeEditors();
      }
    }
  } finally {
    await stop();
    for (const file of bigFiles) fs.rmSync(file, { force: true });
  }
  console.log('BENCH-DONE');
}
