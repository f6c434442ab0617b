// Runs INSIDE the VS Code extension host (harness/host/run-offline.mjs --tests out/bench/host/startup.js),
// before anything else activates the extension: built and launched by bench/startup.bench.ts, it
// prints `BENCH {json}` lines and `BENCH-DONE`.
//
// 1. Activation: `ext.activate()` called → the extension's activate() entered (VS Code loads and
//    evaluates dist/extension.js) and activate() itself (the extension's own clock).
// 2. Send → first update on screen: `api.prompt('/read README.md')` with no agent running (spawn,
//    initialize, session/new, the prompt) → the first tool call in the Tool Calls store (the
//    change event the tree and the chat render from), against a bare SDK client doing the same
//    with the same agent (dist/agent.js) in this same process: spawn → initialize → session/new →
//    prompt → the first `tool_call` session/update. Alternated, ACP_BENCH_STARTUP_REPS times each.
//
// ACP_BENCH_PROFILE (a folder): CPU profiles of the extension host around activation and one
// extension-side Send (their figures are then slowed by the profiler).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';

const EXTENSION_ID = 'acp-native.acp-native';
const PROMPT = '/read README.md';

export type StartupRecord =
  | {
      kind: 'activation';
      alreadyActive: boolean;
      /** ext.activate() called → dist/extension.js begins evaluating (VS Code reads and compiles it). */
      compileMs: number;
      /** The bundle's modules evaluated (the extension's; the ACP SDK is a chunk of its own, loaded with the first agent). */
      evaluateMs: number;
      activateMs: number;
      totalMs: number;
      loadavg: number[];
    }
  | { kind: 'first-update'; rep: number; side: 'bare SDK client' | 'extension'; ms: number; loadavg: number[] };

function emit(record: StartupRecord): void {
  console.log(`BENCH ${JSON.stringify(record)}`);
}

async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.ACP_BENCH_PROFILE;
  if (!dir) return run();
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

/**
 * Waits (at most 20 s) until the extension host has been idle for a second: the built-in extensions
 * that start with the window (git…) would otherwise run in the middle of the activation measured.
 */
async function quiet(): Promise<void> {
  const until = performance.now() + 20_000;
  while (performance.now() < until) {
    const before = performance.eventLoopUtilization();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (performance.eventLoopUtilization(before).utilization < 0.02) return;
  }
}

/** The bare client: spawn the bundled agent, initialize, session/new, prompt; resolves at its first tool_call. */
async function bareFirstUpdate(agentPath: string, cwd: string, stateDir: string): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, [agentPath, '--state-dir', stateDir], {
    cwd,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  try {
    let firstUpdate: (ms: number) => void = () => undefined;
    const arrived = new Promise<number>((resolve) => (firstUpdate = resolve));
    const connection = acp
      .client({ name: 'bench-startup' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        if (params.update.sessionUpdate === 'tool_call') firstUpdate(performance.now() - start);
      })
      .connect(acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>));
    await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    const prompt = connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: PROMPT }] });
    const ms = await arrived;
    await prompt;
    connection.close();
    return ms;
  } finally {
    child.kill();
  }
}

/** The extension: no agent running, then Send; resolves when the first tool call is in the store. */
async function extensionFirstUpdate(api: AcpNativeApi): Promise<number> {
  await api.stopAgent();
  await vscode.commands.executeCommand('acpNative.clearToolCalls');
  const start = performance.now();
  let subscription: vscode.Disposable | undefined;
  const arrived = new Promise<number>((resolve) => {
    subscription = api.onDidChangeToolCalls(() => {
      if (api.toolCalls().length > 0) resolve(performance.now() - start);
    });
  });
  try {
    const stop = api.prompt(PROMPT);
    const ms = await arrived;
    if ((await stop) !== 'end_turn') throw new Error(`${PROMPT}: the turn did not end normally`);
    return ms;
  } finally {
    subscription?.dispose();
  }
}

export async function run(): Promise<void> {
  const reps = Number(process.env.ACP_BENCH_STARTUP_REPS ?? 5);
  const ext = vscode.extensions.getExtension<AcpNativeApi>(EXTENSION_ID);
  if (!ext) throw new Error(`Extension ${EXTENSION_ID} is not loaded`);
  const alreadyActive = ext.isActive;
  await quiet();
  const calledAt = performance.now();
  const api = await profiled('activation', () => Promise.resolve(ext.activate()));
  const totalMs = performance.now() - calledAt;
  const { activation } = api.stats();
  emit({
    kind: 'activation',
    alreadyActive,
    compileMs: activation.moduleEvaluationStartedAt - calledAt,
    evaluateMs: activation.startedAt - activation.moduleEvaluationStartedAt,
    activateMs: activation.ms,
    totalMs,
    loadavg: os.loadavg(),
  });

  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (cwd === undefined) throw new Error('no workspace folder');
  if (!fs.existsSync(path.join(cwd, 'README.md'))) fs.writeFileSync(path.join(cwd, 'README.md'), '# A workspace\n\nFor the startup benchmark.\n');
  const agentPath = path.join(ext.extensionPath, 'dist', 'agent.js');
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-startup-'));
  try {
    for (let rep = -1; rep < reps; rep++) {
      // Alternated, reversed every other repetition; rep -1 is a warm-up of both.
      const sides = rep % 2 === 0 ? (['extension', 'bare SDK client'] as const) : (['bare SDK client', 'extension'] as const);
      for (const side of sides) {
        const ms =
          side === 'extension'
            ? await (rep === 0 ? profiled('first-update', () => extensionFirstUpdate(api)) : extensionFirstUpdate(api))
            : await bareFirstUpdate(agentPath, cwd, stateDir);
        emit({ kind: 'first-update', rep, side, ms, loadavg: os.loadavg() });
      }
    }
  } finally {
    await api.stopAgent();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
  console.log('BENCH-DONE');
}
