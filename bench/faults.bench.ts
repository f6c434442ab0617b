/**
 * Faults that flood the extension host (issue 13, cases 8–10), each as a ratio to a bare pipe
 * carrying the same bytes in the same run:
 * - stdout-line: one huge non-JSON line on the agent's stdout (AgentProcess + the line filter + SDK);
 * - stdout-json: one JSON message over the SDK's 32 MiB limit (the connection must break cleanly);
 * - stderr-progress: a progress bar redrawn with `\r`, no newline, on stderr;
 * - terminal-flood: a `terminal/create` command printing that much, default output limit, into
 *   ClientTerminals and the terminal panel's pseudoterminal.
 * Each runs in a fresh Node process (bench/faults/scenarios.ts) measuring its own CPU time, peak
 * RSS/heap growth and longest event-loop block.
 *
 * Knobs: ACP_BENCH_FAULT_MB (default 50; the JSON case uses at least 40 so it is over the limit).
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { num, ratio, table } from './client/stats';

interface Result {
  name: string;
  mb: number;
  wallMs: number;
  cpuMs: number;
  rssGrowthMB: number;
  heapGrowthMB: number;
  maxBlockMs: number;
  [extra: string]: number | string;
}

const TSX = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');

function runScenario(name: string, mb: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [path.join(__dirname, 'faults', 'scenarios.ts'), name, String(mb)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code === 0 && line) resolve(JSON.parse(line.slice('RESULT '.length)) as Result);
      else reject(new Error(`scenario ${name} failed (exit ${code}):\n${out.slice(-2000)}`));
    });
  });
}

export default async function faultsBench(): Promise<void> {
  const envMb = Number(process.env.ACP_BENCH_FAULT_MB);
  const mb = Number.isFinite(envMb) && envMb > 0 ? envMb : 50;
  const jsonMb = Math.max(mb, 40);
  console.log(`\n## Faults: ${num(mb)} MB floods through the extension's code path, against a bare pipe`);
  const plan: [name: string, mb: number, baseline: string][] = [
    ['stdout-baseline', mb, 'stdout-baseline'],
    ['stdout-line', mb, 'stdout-baseline'],
    ['stdout-json', jsonMb, 'stdout-baseline'],
    ['stderr-baseline', mb, 'stderr-baseline'],
    ['stderr-progress', mb, 'stderr-baseline'],
    ['terminal-flood', mb, 'stdout-baseline'],
  ];
  const results = new Map<string, Result>();
  for (const [name, size] of plan) {
    const result = await runScenario(name, size);
    results.set(name, result);
    process.stdout.write(`  measured ${name} (${num(size)} MB): ${num(result.wallMs)} ms\n`);
  }
  const rows = plan.map(([name, size, baselineName]) => {
    const r = results.get(name) as Result;
    const base = results.get(baselineName) as Result;
    // Sizes differ only for stdout-json: compare per MB.
    const scale = base.mb / r.mb;
    const vs = (pick: (x: Result) => number) => (name === baselineName ? '1.00×' : ratio((pick(r) * scale) / Math.max(pick(base), 1)));
    return [
      name,
      num(size),
      num(r.wallMs),
      num(r.cpuMs),
      vs((x) => x.cpuMs),
      num(r.rssGrowthMB, 1),
      vs((x) => x.rssGrowthMB),
      num(r.heapGrowthMB, 1),
      num(r.maxBlockMs, 1),
      vs((x) => x.maxBlockMs),
    ];
  });
  console.log(
    '\n' +
      table([['scenario', 'MB', 'wall ms', 'CPU ms', 'CPU vs pipe', 'RSS growth MB', 'vs pipe', 'heap growth MB', 'max block ms', 'vs pipe'], ...rows]),
  );
  const detail = (name: string, keys: string[]) => {
    const r = results.get(name) as Result;
    return keys.map((k) => `${k} ${num(Number(r[k]))}`).join(', ');
  };
  console.log(`
- "vs pipe": the same bytes read from a bare pipe and dropped (per MB for stdout-json). RSS/heap growth: peak over the
  start of the scenario's own process; max block: the longest the event loop did not turn (5 ms probe and histogram).
- stdout-line: ${detail('stdout-line', ['messages', 'logChars'])}; stdout-json: ${detail('stdout-json', ['streamFailed'])} (1 = the stream broke, as it must).
- stderr-progress: ${detail('stderr-progress', ['errorMessageChars', 'tailChars', 'logChars'])}.
- terminal-flood: ${detail('terminal-flood', ['keptChars', 'renderedChars'])} (kept: what terminal/output returns; rendered: given to the panel).`);
}
