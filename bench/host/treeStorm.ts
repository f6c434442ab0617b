// Runs INSIDE the VS Code extension host (test/host/run-offline.mjs --tests out/bench/host/treeStorm.js):
// tool-call storms from a real agent process (test/agents/stormAgent.ts) through the extension's
// real connection, session core and Tool Calls tree. Built and launched by
// bench/client/treeStormBench.ts; prints one `BENCH {json}` line per measured run (console.log
// of the extension host reaches the launcher's stdout) and `BENCH-DONE` at the end.
//
// Environment (the launcher's environment reaches the extension host):
//   ACP_BENCH_STORM_CALLS   tool calls per storm (default 10000)
//   ACP_BENCH_STORM_REPS    repetitions of each scenario (default 2)
//   ACP_BENCH_STORM_PACE    tool calls per second of the paced scenarios (default 2000)
//   ACP_BENCH_PROFILE       a folder: write a CPU profile of the extension host per run there
import * as fs from 'node:fs';
import * as inspector from 'node:inspector/promises';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api';

const EXTENSION_ID = 'acp-native.acp-native';

/** How long the tree's refresh counter must stay still to call the tree settled (its timer is 50 ms). */
const QUIET_MS = 400;

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
  /** CPU time of the extension host process from the prompt until settled. */
  readonly cpuMs: number;
  /** Event-loop utilization of the extension host over the same span (0–1). */
  readonly elu: number;
  /** Longest stall of the extension host's event loop: how late a 10 ms interval fired. */
  readonly maxLagMs: number;
  readonly treeRefreshes: number;
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
  readonly name: 'baseline' | 'storm, view hidden' | 'storm, view visible' | 'storm ¼, view visible' | 'paced baseline' | 'paced storm, view visible';
  readonly prompt: string;
  readonly calls: number;
  readonly visible: boolean;
}

async function setSetting(key: string, value: unknown): Promise<void> {
  const [section, ...rest] = key.split('.');
  await vscode.workspace.getConfiguration(section).update(rest.join('.'), value, vscode.ConfigurationTarget.Global);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once the refresh counter has not moved for QUIET_MS; returns when it last moved. */
async function settled(api: AcpNativeApi): Promise<number> {
  let count = api.stats().treeRefreshes;
  let lastChange = performance.now();
  while (performance.now() - lastChange < QUIET_MS) {
    await sleep(10);
    const now = api.stats().treeRefreshes;
    if (now !== count) {
      count = now;
      lastChange = performance.now();
    }
  }
  return lastChange;
}

/** How late a 10 ms interval fires: the longest stall of the extension host's event loop. */
function lagProbe(): { stop(): number } {
  let last = performance.now();
  let max = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last - 10);
    last = now;
  }, 10);
  return {
    stop: () => {
      clearInterval(timer);
      return max;
    },
  };
}

/** With ACP_BENCH_PROFILE set: a CPU profile of the extension host around one run. */
async function profiler(name: string): Promise<{ stop(): Promise<void> }> {
  const dir = process.env.ACP_BENCH_PROFILE;
  if (!dir) return { stop: () => Promise.resolve() };
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${name.replace(/\W+/g, '-')}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function showView(visible: boolean): Promise<void> {
  // Hidden: VS Code defers a hidden view's refreshes, so it never asks the provider for children.
  await vscode.commands.executeCommand(visible ? 'acpNative.toolCalls.focus' : 'workbench.view.explorer');
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

async function measure(api: AcpNativeApi, rep: number, scenario: Scenario): Promise<HostRun> {
  const { prompt, calls, visible } = scenario;
  await vscode.commands.executeCommand('acpNative.clearToolCalls');
  await api.newSession();
  await showView(visible);
  await settled(api);
  const refreshesBefore = api.stats().treeRefreshes;
  const profile = await profiler(`${rep}-${scenario.name}-${prompt}`);
  const lag = lagProbe();
  const cpu = process.cpuUsage();
  const elu = performance.eventLoopUtilization();
  const start = performance.now();
  const stop = await api.prompt(prompt);
  const promptMs = performance.now() - start;
  if (stop !== 'end_turn') throw new Error(`${prompt}: stop reason ${stop}`);
  const settledAt = await settled(api);
  const used = process.cpuUsage(cpu);
  const loop = performance.eventLoopUtilization(elu);
  const maxLagMs = lag.stop();
  await profile.stop();
  const stats = api.stats();
  const snapshotStart = performance.now();
  const snapshot = api.toolCalls();
  const snapshotMs = performance.now() - snapshotStart;
  if (snapshot.length !== calls) throw new Error(`${prompt}: ${snapshot.length} tool calls in the store, expected ${calls}`);
  // Both prompts send 2.5 messages per call: a tool_call, then two updates for even calls, one for odd.
  const count = Number(prompt.split(' ')[1]);
  if (stats.updatesApplied !== 2 * count + Math.ceil(count / 2)) throw new Error(`${prompt}: ${stats.updatesApplied} updates applied`);
  const refreshCpuMs = visible && calls > 0 && scenario.name === 'storm, view visible' ? await refreshCost(api) : undefined;
  return {
    rep,
    scenario: scenario.name,
    prompt,
    calls,
    viewVisible: visible,
    promptMs,
    settledMs: Math.max(promptMs, settledAt - start),
    cpuMs: (used.user + used.system) / 1000,
    elu: loop.utilization,
    maxLagMs,
    treeRefreshes: stats.treeRefreshes - refreshesBefore,
    updatesApplied: stats.updatesApplied,
    changeEvents: stats.changeEvents,
    storedCalls: snapshot.length,
    snapshotMs,
    ...(refreshCpuMs !== undefined ? { refreshCpuMs } : {}),
  };
}

export function scenarios(calls: number, pace: number): Scenario[] {
  return [
    { name: 'baseline', prompt: `baseline ${calls}`, calls: 0, visible: true },
    { name: 'storm, view hidden', prompt: `storm ${calls}`, calls, visible: false },
    { name: 'storm, view visible', prompt: `storm ${calls}`, calls, visible: true },
    { name: 'storm ¼, view visible', prompt: `storm ${Math.round(calls / 4)}`, calls: Math.round(calls / 4), visible: true },
    { name: 'paced baseline', prompt: `baseline ${calls} ${pace}`, calls: 0, visible: true },
    { name: 'paced storm, view visible', prompt: `storm ${calls} ${pace}`, calls, visible: true },
  ];
}

export async function run(): Promise<void> {
  const calls = Number(process.env.ACP_BENCH_STORM_CALLS ?? 10_000);
  const reps = Number(process.env.ACP_BENCH_STORM_REPS ?? 2);
  const pace = Number(process.env.ACP_BENCH_STORM_PACE ?? 2000);
  const ext = vscode.extensions.getExtension<AcpNativeApi>(EXTENSION_ID);
  if (!ext) throw new Error(`Extension ${EXTENSION_ID} is not loaded`);
  const api = await ext.activate();

  // The storm agent is built next to this module: out/bench/agents/stormAgent.js.
  const agentPath = path.join(__dirname, '..', 'agents', 'stormAgent.js');
  if (!fs.existsSync(agentPath)) throw new Error(`storm agent not built: ${agentPath}`);
  await setSetting('acpNative.agents', [{ name: 'storm', command: process.execPath, args: [agentPath], env: { ELECTRON_RUN_AS_NODE: '1' } }]);
  await setSetting('acpNative.defaultAgent', 'storm');
  // 10,000 edits must not open 2,500 diff editors: this measures the tree, not the diff editor.
  await setSetting('acpNative.diff.autoOpen', 'onClick');
  await api.stopAgent();
  console.log(`BENCH-INFO ${JSON.stringify({ vscode: vscode.version, node: process.versions.node, calls, reps, pace })}`);

  try {
    // Warm-up: agent start, JIT of the SDK, the core and the tree.
    await measure(api, -1, { name: 'storm, view visible', prompt: 'storm 1000', calls: 1000, visible: true });
    await measure(api, -1, { name: 'baseline', prompt: 'baseline 1000', calls: 0, visible: true });
    for (let rep = 0; rep < reps; rep++) {
      const runs = scenarios(calls, pace);
      // Reversed every other repetition, so drift of the machine does not favour one side.
      if (rep % 2 === 1) runs.reverse();
      for (const scenario of runs) console.log(`BENCH ${JSON.stringify(await measure(api, rep, scenario))}`);
    }
  } finally {
    await vscode.commands.executeCommand('acpNative.clearToolCalls');
    await api.stopAgent();
    await setSetting('acpNative.defaultAgent', undefined);
    await setSetting('acpNative.diff.autoOpen', undefined);
    await setSetting('acpNative.agents', undefined);
  }
  console.log('BENCH-DONE');
}
