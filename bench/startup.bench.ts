/**
 * Startup figures, each with the load average it was measured at:
 * 1. bundle sizes of the production build (bytes, and gzip as an estimate of their VSIX share);
 * 2. the bundled agent's startup, spawn → `initialize` answered, against spawning `node -e ''`
 *    (alternated, same run);
 * 3. in the real VS Code host (bench/host/startup.ts): activation (VS Code loading and evaluating
 *    dist/extension.js, and activate() itself, absolute ms), and Send → the first tool call in the
 *    store against a bare SDK client's spawn + initialize + session/new + prompt → first tool_call
 *    of the same agent.
 *
 * Runs the production build (what users run) and rebuilds the development one at the end.
 * Knobs: ACP_BENCH_STARTUP_REPS (5 host repetitions), ACP_BENCH_AGENT_STARTS (15),
 * ACP_BENCH_SKIP_HOST=1. Wrap in the host lock: only one VS Code host may run on the machine.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { median, num, ratio, table } from './client/stats';
import type { StartupRecord } from './host/startup';
import { buildHostBench, repoRoot, runHostBench, type HostBench } from './support/hostBench';
import { envNumber } from './support/knobs';

const BENCH: HostBench = { host: 'startup' };
const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');

function bundleSizes(): void {
  const dist = path.join(repoRoot, 'dist');
  const rows = readdirSync(dist)
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => {
      const bytes = readFileSync(path.join(dist, f));
      return [`dist/${f}`, num(bytes.length / 1024), num(gzipSync(bytes).length / 1024)];
    });
  console.log(`\n## Bundle sizes (production build)\n${table([['file', 'KB', 'gzip KB'], ...rows])}`);
}

/** Spawn → the first byte of the answer to `initialize` (or, for `node -e ''`, → exit). */
function startOnce(args: string[], initialize: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ACP_NATIVE_STATE_DIR: os.tmpdir() } });
    child.on('error', reject);
    if (!initialize) {
      child.on('exit', () => resolve(performance.now() - start));
      return;
    }
    child.stdout.once('data', () => {
      resolve(performance.now() - start);
      child.kill();
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: {} } })}\n`);
  });
}

async function agentStartup(starts: number): Promise<void> {
  const agent = path.join(repoRoot, 'dist', 'agent.js');
  const bare: number[] = [];
  const agentMs: number[] = [];
  await startOnce(['-e', ''], false);
  await startOnce([agent], true);
  for (let i = 0; i < starts; i++) {
    // Alternated, so the machine's drift weighs on both alike.
    bare.push(await startOnce(['-e', ''], false));
    agentMs.push(await startOnce([agent], true));
  }
  console.log(`\n## The bundled agent's startup (median of ${starts}, load ${load()})`);
  console.log(
    table([
      ['what', 'ms', 'ratio'],
      ["spawn `node -e ''` → exit", num(median(bare), 1), '1.00×'],
      ['spawn dist/agent.js → initialize answered', num(median(agentMs), 1), ratio(median(agentMs) / median(bare))],
    ]),
  );
}

async function hostFigures(reps: number): Promise<void> {
  await buildHostBench(BENCH);
  console.log(`\nVS Code host: activation, then ${reps} alternated repetitions of Send → first update (code-server + headless Chromium)...`);
  const records = await runHostBench<StartupRecord>(BENCH, { timeout: '10m', env: { ACP_BENCH_STARTUP_REPS: String(reps) } });
  const activation = records.find((r) => r.kind === 'activation');
  if (activation?.kind === 'activation') {
    console.log(`\n## Activation in VS Code (load ${activation.loadavg.map((l) => l.toFixed(2)).join(' ')})`);
    if (activation.alreadyActive) console.log('(the extension was already active: these are not first-activation figures)');
    console.log(
      table([
        ['what', 'ms'],
        ['ext.activate() → dist/extension.js starts evaluating (VS Code reads and compiles it)', num(activation.compileMs, 1)],
        ['its modules evaluated (the extension; its ACP SDK, dist/acpSdk.js, loads with the first agent)', num(activation.evaluateMs, 1)],
        ['activate() itself', num(activation.activateMs, 1)],
        ['ext.activate() → its promise resolved', num(activation.totalMs, 1)],
      ]),
    );
  }
  const firsts = records.flatMap((r) => (r.kind === 'first-update' && r.rep >= 0 ? [r] : []));
  const of = (side: string) => firsts.filter((r) => r.side === side).map((r) => r.ms);
  const bare = median(of('bare SDK client'));
  const ext = median(of('extension'));
  const loads = firsts.map((r) => r.loadavg[0] ?? 0);
  console.log(`\n## Send → first update (median of ${of('extension').length}, load ${num(Math.min(...loads), 2)}–${num(Math.max(...loads), 2)})`);
  console.log(
    table([
      ['what', 'ms', 'ratio'],
      ['bare SDK client: spawn dist/agent.js, initialize, session/new, prompt → first tool_call', num(bare, 1), '1.00×'],
      ['extension: Send with no agent running → first tool call in the store (what the tree and chat render)', num(ext, 1), ratio(ext / bare)],
    ]),
  );
  // The warm-up (bare client first, then the extension): the extension's first agent after
  // activation also loads the ACP SDK (dist/acpSdk.js), which later ones find loaded. One sample each.
  const warmUp = (side: string) => records.find((r) => r.kind === 'first-update' && r.rep === -1 && r.side === side);
  const warmBare = warmUp('bare SDK client');
  const warmExt = warmUp('extension');
  if (warmBare?.kind === 'first-update' && warmExt?.kind === 'first-update') {
    console.log(`\n## The first Send after activation (the warm-up, one sample each, load ${num(warmExt.loadavg[0] ?? 0, 2)})`);
    console.log(
      table([
        ['what', 'ms', 'ratio'],
        ['bare SDK client, first run in this host', num(warmBare.ms, 1), '1.00×'],
        ["extension, first Send after activation (its first agent: loads the ACP SDK's chunk)", num(warmExt.ms, 1), ratio(warmExt.ms / warmBare.ms)],
      ]),
    );
  }
}

export default async function startupBench(): Promise<void> {
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: repoRoot, stdio: 'inherit' });
  try {
    bundleSizes();
    await agentStartup(envNumber('ACP_BENCH_AGENT_STARTS', 15));
    if (process.env.ACP_BENCH_SKIP_HOST !== '1') await hostFigures(envNumber('ACP_BENCH_STARTUP_REPS', 5));
  } finally {
    execFileSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  }
}
