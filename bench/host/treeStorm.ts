// Runs INSIDE the VS Code extension host (harness/host/run-offline.mjs --tests out/bench/host/treeStorm.js):
// tool-call storms from a real agent process (harness/agents/stormAgent.ts) through the extension's
// real connection, session core and Tool Calls tree, and a replay of a stored session
// (`session/load`) against reading and parsing the same updates from a file. Built and launched by
// bench/client/treeStormBench.ts; prints one `BENCH {json}` line per measured run (console.log
// of the extension host reaches the launcher's stdout) and `BENCH-DONE` at the end.
//
// Environment (the launcher's environment reaches the extension host):
//   ACP_BENCH_STORM_CALLS   tool calls per storm (default 10000)
//   ACP_BENCH_STORM_REPS    repetitions of each scenario (default 2)
//   ACP_BENCH_STORM_PACE    tool calls per second of the paced scenarios (default 2000)
//   ACP_BENCH_REPLAY_EVENTS updates of the replayed session (default 10000)
//   ACP_BENCH_PROFILE       a folder: write a CPU profile of the extension host per run there
//   ACP_BENCH_STORM_ONLY    run only the scenarios whose name contains one of these comma-separated texts
//                           (`;`-separated when the list holds a `;`: names hold commas)
//   ACP_BENCH_TREE_ALONE=1  close the Chat view (it shares the container), so "view visible" is the tree alone
import * as fs from 'node:fs';
import * as inspector from 'node:inspector/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { replaySessionId, replayUpdates } from '../../harness/agents/lib/stormMessages';
import { sleep } from '../../harness/inHost/wait';
import { activateWithStormAgent, deflatedBytes, deflateWrites, profiler, watchSpawns } from '../support/inHost';
import { startLoopBlocks } from '../support/loopBlocks';
import { startGcPauses, startMainThreadBlocks } from '../support/mainThreadBlocks';


/**
 * How long the tree's refresh counter must stay still to call the tree settled: its timer waits
 * 50–500 ms, longer after a costly refresh (cards/tree/model/treeRefresh.ts `refreshDelay`).
 */
const QUIET_MS = 1000;

/** Full refreshes measured after a storm, with all its calls in the tree. */
const REFRESH_SAMPLES = 3;

export interface HostRun {
  readonly rep: number;
  readonly scenario: Scenario['name'];
  readonly prompt: string;
  /** Tool calls the storm sent (0 for a baseline). */
  readonly calls: number;
  readonly viewVisible: boolean;
  /** Prompt sent → `end_turn` received (every update ingested: they precede the response). */
  readonly promptMs: number;
  /** Prompt sent → the last tree refresh fired. */
  readonly settledMs: number;
  /**
   * Prompt sent → the window shows the last call: the Tool Calls view listed all the calls and the
   * chat webview acknowledged drawing its last patch (`stats().window`); undefined with the view hidden.
   */
  readonly uiShownMs?: number;
  /** The window-lag loop (`acpNative.performance.adaptToWindowLag`) was on; its level changes and time off the normal cadence. */
  readonly loopOn: boolean;
  readonly levelChanges: number;
  readonly behindMs: number;
  /** CPU time of the extension host process from the prompt until settled. */
  readonly cpuMs: number;
  /** Event-loop utilization of the extension host over the same span (0–1). */
  readonly elu: number;
  /** Longest event-loop block of the extension host (bench/support/loopBlocks.ts). */
  readonly maxBlockMs: number;
  /** 99th percentile of its event-loop delay. */
  readonly p99Ms: number;
  /**
   * The extension host's main thread during its longest block: its CPU time and its time waiting for
   * a CPU (ms; Linux, else the process's CPU and 0). Near the block's wall time, the host worked all
   * along; far below it, the loaded machine ran other processes, or the thread slept in a system call.
   */
  readonly maxBlockCpuMs: number;
  readonly maxBlockWaitMs: number;
  /** The most CPU time the main thread spent in one block (ms): the longest the host itself worked without a turn. */
  readonly maxCpuInBlockMs: number;
  /** Growth of the extension host's JS heap / resident set over the run, each after a full GC (MB). */
  readonly heapGrowthMb: number;
  readonly rssGrowthMb: number;
  /**
   * Processes the extension host started meanwhile (VS Code's port finder: a shell every 2–11 s in
   * code-server) and the longest time one `spawn` held its event loop (ms).
   */
  readonly spawns: number;
  readonly longestSpawnMs: number;
  /** Garbage collection meanwhile: the longest pause and the total (ms); a long pause is a block of its own. */
  readonly gcMaxMs: number;
  readonly gcTotalMs: number;
  /** One-minute load average of the machine when the run ended. */
  readonly load: number;
  readonly treeRefreshes: number;
  /** Tree items VS Code asked for meanwhile, and how many the tree had to build (the rest were cached). */
  readonly treeItemsServed: number;
  readonly treeItemsBuilt: number;
  /** What the extension host sent the window meanwhile, before compression (KB; support/inHost.ts `deflatedBytes`). */
  readonly sentKb: number;
  /** Writes into the host's deflate streams meanwhile (about one per message sent to the window). */
  readonly sentWrites: number;
  readonly updatesApplied: number;
  readonly changeEvents: number;
  /** Tool calls in the store afterwards, from the API snapshot (checked against `calls`). */
  readonly storedCalls: number;
  /** `api.toolCalls()` once afterwards: builds every call's tree item and children. */
  readonly snapshotMs: number;
  /** The flat-out storm with the view visible: extension-host CPU per root refresh with all `calls` shown. */
  readonly refreshCpuMs?: number;
}

export interface Scenario {
  readonly name:
    | 'baseline'
    | 'storm, view hidden'
    | 'storm, view visible'
    | 'storm, view visible, loop off'
    | 'storm ¼, view visible'
    | 'paced baseline'
    | 'paced storm, view visible'
    | 'paced storm, view visible, loop off'
    | 'read + parse of the log'
    | 'session/load, view visible';
  /** The prompt; for a replay, the session id loaded (or the log file read). */
  readonly prompt: string;
  /** A prompt to the agent, a `session/load`, or the file read and parsed in its place. */
  readonly kind: 'prompt' | 'replay' | 'parse';
  readonly calls: number;
  /** The `session/update`s the scenario delivers. */
  readonly updates: number;
  readonly visible: boolean;
  /** The window-lag loop is off for this scenario (the same build's baseline). */
  readonly loopOff?: boolean;
}

async function setLoop(on: boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration('acpNative');
  if (config.get<boolean>('performance.adaptToWindowLag', true) === on) return;
  await config.update('performance.adaptToWindowLag', on, vscode.ConfigurationTarget.Global);
}

/**
 * When the window showed the last call (host `performance.now()`): the Tool Calls view listed the
 * session with all `calls` and the chat drew its last patch; undefined when it has not (yet).
 */
function uiShownAt(api: AcpNativeApi, calls: number): number | undefined {
  const shown = api.stats().window;
  if (!shown.tree || shown.tree.calls !== calls || !shown.chat || shown.chat.length !== shown.chatPosted) return undefined;
  return Math.max(shown.tree.at, shown.chat.at);
}


/** Resolves once the refresh counter has not moved for QUIET_MS; returns when it last moved. */
async function settled(api: AcpNativeApi): Promise<number> {
  let count = api.stats().treeRefreshes;
  let lastChange = performance.now();
  while (performance.now() - lastChange < QUIET_MS) {
    await sleep(10);
    const now = api.stats().treeRefreshes;
    // Off the normal cadence a redraw may still wait (up to 2 s): not settled.
    if (now !== count || api.stats().window.level !== 'normal') {
      count = now;
      lastChange = performance.now();
    }
  }
  return lastChange;
}

async function showView(visible: boolean): Promise<void> {
  // Hidden: VS Code defers a hidden view's refreshes, so it never asks the provider for children.
  await vscode.commands.executeCommand(visible ? 'acpNative.toolCalls.focus' : 'workbench.view.explorer');
  // The Chat view shares the container: closed, the Tool Calls view is measured alone.
  if (visible && process.env.ACP_BENCH_TREE_ALONE === '1') await vscode.commands.executeCommand('acpNative.chat.removeView');
  await sleep(300);
}

/**
 * Extension-host CPU per root refresh of a tree that still shows the last storm: each sample starts a
 * new session (the tree refreshes from the root, and VS Code re-fetches every call of the expanded
 * storm session) and waits until the tree settles.
 */
async function refreshCost(api: AcpNativeApi): Promise<number> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < REFRESH_SAMPLES; i++) {
    await api.newSession();
    await settled(api);
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / REFRESH_SAMPLES;
}

/** Memory of the extension host after a full garbage collection. */
async function memoryAfterGc(): Promise<NodeJS.MemoryUsage> {
  const session = new inspector.Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
  } finally {
    session.disconnect();
  }
  return process.memoryUsage();
}

/** What a scenario does while measured; resolves when its last update was ingested. */
async function act(api: AcpNativeApi, scenario: Scenario): Promise<void> {
  switch (scenario.kind) {
    case 'prompt': {
      const stop = await api.prompt(scenario.prompt);
      if (stop !== 'end_turn') throw new Error(`${scenario.prompt}: stop reason ${stop}`);
      return;
    }
    case 'replay':
      // Resolves once the agent answered and every replayed update was applied.
      return api.loadSession(scenario.prompt);
    case 'parse': {
      // The yardstick of a replay: the same updates read from a file and parsed, nothing else.
      let sink = 0;
      for (const line of fs.readFileSync(scenario.prompt, 'utf8').split('\n')) if (line) sink += (JSON.parse(line) as { method: string }).method.length;
      if (sink === 0) throw new Error(`${scenario.prompt} is empty`);
      return;
    }
  }
}

async function measure(api: AcpNativeApi, rep: number, scenario: Scenario): Promise<HostRun> {
  const { prompt, calls, visible } = scenario;
  await setLoop(!scenario.loopOff);
  await vscode.commands.executeCommand('acpNative.clearToolCalls');
  if (scenario.kind === 'prompt') await api.newSession();
  await showView(visible);
  await settled(api);
  const refreshesBefore = api.stats().treeRefreshes;
  const itemsBefore = api.stats().treeItems;
  const memoryBefore = await memoryAfterGc();
  const profile = await profiler('storm', `${rep}-${scenario.name}-${path.basename(prompt)}`);
  const sentBefore = deflatedBytes();
  const writesBefore = deflateWrites();
  const blocks = startLoopBlocks();
  const mainThread = startMainThreadBlocks();
  const gc = startGcPauses();
  const spawned = { count: 0, longestMs: 0 };
  const spawnWatch = watchSpawns((_file, ms) => {
    spawned.count++;
    spawned.longestMs = Math.max(spawned.longestMs, ms);
  });
  const windowBefore = api.stats().window;
  const cpu = process.cpuUsage();
  const elu = performance.eventLoopUtilization();
  const start = performance.now();
  await act(api, scenario);
  const promptMs = performance.now() - start;
  const settledAt = scenario.kind === 'parse' ? performance.now() : await settled(api);
  const windowShown = api.stats().window;
  let shownAt = visible && scenario.kind === 'prompt' && calls > 0 ? uiShownAt(api, calls) : undefined;
  // The chat's last acknowledgement may come after the tree settled: wait for it (10 s at most).
  for (let waited = 0; shownAt === undefined && visible && scenario.kind === 'prompt' && calls > 0 && waited < 10_000; waited += 20) {
    await sleep(20);
    shownAt = uiShownAt(api, calls);
  }
  const used = process.cpuUsage(cpu);
  const sent = deflatedBytes() - sentBefore;
  const sentWrites = deflateWrites() - writesBefore;
  const loop = performance.eventLoopUtilization(elu);
  const loopBlocks = blocks.stop();
  const mainBlocks = mainThread.stop();
  const gcSeen = gc.stop();
  spawnWatch.stop();
  await profile.stop();
  const memoryAfter = await memoryAfterGc();
  const stats = api.stats();
  const snapshotStart = performance.now();
  const snapshot = scenario.kind === 'parse' ? [] : api.toolCalls();
  const snapshotMs = performance.now() - snapshotStart;
  if (snapshot.length !== calls) throw new Error(`${prompt}: ${snapshot.length} tool calls in the store, expected ${calls}`);
  if (scenario.kind !== 'parse' && stats.updatesApplied !== scenario.updates) {
    throw new Error(`${prompt}: ${stats.updatesApplied} updates applied, expected ${scenario.updates}`);
  }
  const refreshCpuMs = visible && calls > 0 && scenario.name === 'storm, view visible' ? await refreshCost(api) : undefined;
  return {
    rep,
    scenario: scenario.name,
    prompt,
    calls,
    viewVisible: visible,
    promptMs,
    settledMs: Math.max(promptMs, settledAt - start),
    ...(shownAt !== undefined ? { uiShownMs: shownAt - start } : {}),
    loopOn: !scenario.loopOff,
    levelChanges: windowShown.levelChanges - windowBefore.levelChanges,
    behindMs: windowShown.behindMs - windowBefore.behindMs,
    cpuMs: (used.user + used.system) / 1000,
    elu: loop.utilization,
    maxBlockMs: loopBlocks.maxMs,
    p99Ms: loopBlocks.p99Ms,
    maxBlockCpuMs: mainBlocks.longestCpuMs,
    maxBlockWaitMs: mainBlocks.longestWaitMs,
    maxCpuInBlockMs: mainBlocks.maxCpuMs,
    heapGrowthMb: (memoryAfter.heapUsed - memoryBefore.heapUsed) / 2 ** 20,
    rssGrowthMb: (memoryAfter.rss - memoryBefore.rss) / 2 ** 20,
    spawns: spawned.count,
    longestSpawnMs: spawned.longestMs,
    gcMaxMs: gcSeen.maxMs,
    gcTotalMs: gcSeen.totalMs,
    load: os.loadavg()[0],
    treeRefreshes: stats.treeRefreshes - refreshesBefore,
    treeItemsServed: stats.treeItems.served - itemsBefore.served,
    treeItemsBuilt: stats.treeItems.built - itemsBefore.built,
    sentKb: sent / 1024,
    sentWrites,
    updatesApplied: stats.updatesApplied,
    changeEvents: stats.changeEvents,
    storedCalls: snapshot.length,
    snapshotMs,
    ...(refreshCpuMs !== undefined ? { refreshCpuMs } : {}),
  };
}

/** A storm prompt sends 2.5 messages per call: a tool_call, then two updates for even calls, one for odd. */
const stormUpdates = (calls: number) => 2 * calls + Math.ceil(calls / 2);

export function scenarios(calls: number, pace: number, replay: { events: number; calls: number; log: string }): Scenario[] {
  const quarter = Math.round(calls / 4);
  const prompt = (name: Scenario['name'], text: string, stormCalls: number, visible: boolean, count = calls): Scenario => ({
    name,
    kind: 'prompt',
    prompt: text,
    calls: stormCalls,
    updates: stormUpdates(count),
    visible,
  });
  return [
    prompt('baseline', `baseline ${calls}`, 0, true),
    prompt('storm, view hidden', `storm ${calls}`, calls, false),
    prompt('storm, view visible', `storm ${calls}`, calls, true),
    { ...prompt('storm, view visible, loop off', `storm ${calls}`, calls, true), loopOff: true },
    prompt('storm ¼, view visible', `storm ${quarter}`, quarter, true, quarter),
    prompt('paced baseline', `baseline ${calls} ${pace}`, 0, true),
    prompt('paced storm, view visible', `storm ${calls} ${pace}`, calls, true),
    { ...prompt('paced storm, view visible, loop off', `storm ${calls} ${pace}`, calls, true), loopOff: true },
    { name: 'read + parse of the log', kind: 'parse', prompt: replay.log, calls: 0, updates: replay.events, visible: true },
    { name: 'session/load, view visible', kind: 'replay', prompt: replaySessionId(replay.events), calls: replay.calls, updates: replay.events, visible: true },
  ];
}

/** Writes the replayed session's updates as the agent sends them (ndjson of `session/update`s). */
function writeReplayLog(events: number, cwd: string): { events: number; calls: number; log: string } {
  const updates = replayUpdates(events, cwd);
  const sessionId = replaySessionId(events);
  const log = path.join(os.tmpdir(), `acp-bench-${sessionId}.ndjson`);
  fs.writeFileSync(log, updates.map((update) => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId, update } })}\n`).join(''));
  return { events, calls: updates.filter((u) => u.sessionUpdate === 'tool_call').length, log };
}

export async function run(): Promise<void> {
  const calls = Number(process.env.ACP_BENCH_STORM_CALLS ?? 10_000);
  const reps = Number(process.env.ACP_BENCH_STORM_REPS ?? 2);
  const pace = Number(process.env.ACP_BENCH_STORM_PACE ?? 2000);
  const replayEvents = Number(process.env.ACP_BENCH_REPLAY_EVENTS ?? 10_000);
  const { api, stop } = await activateWithStormAgent();
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  const replay = writeReplayLog(replayEvents, cwd);
  console.log(`BENCH-INFO ${JSON.stringify({ vscode: vscode.version, node: process.versions.node, calls, reps, pace, replayEvents })}`);

  try {
    // Warm-up: agent start, JIT of the SDK, the core and the tree.
    const warmUpReplay = writeReplayLog(1000, cwd);
    const warmUp = scenarios(1000, pace, warmUpReplay);
    for (const name of ['storm, view visible', 'baseline', 'session/load, view visible'] as const) {
      await measure(api, -1, warmUp.find((s) => s.name === name) as Scenario);
    }
    // With ACP_BENCH_REPLAY_EVENTS=1000 the warm-up's log is the measured runs' own file.
    if (warmUpReplay.log !== replay.log) fs.rmSync(warmUpReplay.log, { force: true });
    for (let rep = 0; rep < reps; rep++) {
      const only = process.env.ACP_BENCH_STORM_ONLY;
      // Scenario names hold commas: a list with a `;` is split on `;` ("storm, view visible;session/load").
      const parts = only?.split(only.includes(';') ? ';' : ',');
      const runs = scenarios(calls, pace, replay).filter((s) => !parts || parts.some((part) => s.name.includes(part)));
      // Reversed every other repetition, so drift of the machine does not favour one side.
      if (rep % 2 === 1) runs.reverse();
      for (const scenario of runs) console.log(`BENCH ${JSON.stringify(await measure(api, rep, scenario))}`);
    }
  } finally {
    await setLoop(true);
    await vscode.commands.executeCommand('acpNative.clearToolCalls');
    await stop();
    fs.rmSync(replay.log, { force: true });
  }
  console.log('BENCH-DONE');
}
