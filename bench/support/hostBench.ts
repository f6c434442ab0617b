/**
 * The one launcher of the benches that run INSIDE the real VS Code extension host: esbuild bundles
 * the in-host module (bench/host/NAME.ts) and the test agents it drives (harness/agents) into
 * out/bench/, harness/host/run-offline.mjs runs it in code-server + headless Chromium, and the
 * module prints one `BENCH {json}` line per measured run and `BENCH-DONE` at the end (console.log
 * of the extension host reaches our stdout).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

export const repoRoot = path.resolve(__dirname, '..', '..');

/** A bench run in VS Code: its in-host module and the test agents it starts. */
export interface HostBench {
  /** bench/host/NAME.ts, built to out/bench/host/NAME.js. */
  readonly host: string;
  /** Programs of harness/agents (NAME.ts), built to out/bench/agents/NAME.js, where the in-host module finds them. */
  readonly agents?: readonly string[];
}

/** Where the benches' build of the test agent `name` is. */
export function benchAgentPath(name: string): string {
  return path.join(repoRoot, 'out', 'bench', 'agents', `${name}.js`);
}

const hostModule = (bench: HostBench): string => path.join('out', 'bench', 'host', `${bench.host}.js`);

/** Bundles the bench's module and agents; the extension itself must be built (`npm run bench` does it). */
export async function buildHostBench(bench: HostBench): Promise<void> {
  if (!existsSync(path.join(repoRoot, 'dist', 'extension.js'))) {
    throw new Error('dist/extension.js is missing: build the extension first (`node esbuild.mjs`; `npm run bench` does it).');
  }
  await buildBenchModules([
    { entry: `bench/host/${bench.host}.ts`, outfile: hostModule(bench), host: true },
    ...(bench.agents ?? []).map((name) => ({ entry: `harness/agents/${name}.ts`, outfile: benchAgentPath(name) })),
  ]);
}

/** Runs a bench built by `buildHostBench` in VS Code (see `runInHost`). */
export function runHostBench<T>(bench: HostBench, options: Omit<Parameters<typeof runInHost<T>>[0], 'module'>): Promise<T[]> {
  return runInHost<T>({ ...options, module: hostModule(bench) });
}

/** Bundles each entry to its outfile as a Node CommonJS program; `host` entries leave `vscode` to the host. */
async function buildBenchModules(entries: readonly { entry: string; outfile: string; host?: boolean }[]): Promise<void> {
  await Promise.all(
    entries.map(({ entry, outfile, host }) =>
      esbuild.build({
        absWorkingDir: repoRoot,
        entryPoints: [entry],
        outfile,
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        sourcemap: 'inline',
        sourcesContent: false,
        logLevel: 'warning',
        logOverride: { 'empty-import-meta': 'silent' },
        external: host ? ['vscode'] : [],
      }),
    ),
  );
}

/**
 * Runs a built in-host module in VS Code with `env` added to this process's environment (it
 * reaches the extension host); resolves with its BENCH records, each also passed to `onRecord`.
 */
function runInHost<T>(options: {
  module: string;
  env: Record<string, string>;
  timeout: string;
  onRecord?: (record: T) => void;
}): Promise<T[]> {
  const args = ['harness/host/run-offline.mjs', '--tests', options.module, '--timeout', options.timeout];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const records: T[] = [];
    const output: string[] = [];
    let done = false;
    let partial = '';
    const onData = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        output.push(line);
        if (line.startsWith('BENCH {')) {
          const record = JSON.parse(line.slice('BENCH '.length)) as T;
          records.push(record);
          options.onRecord?.(record);
        } else if (line === 'BENCH-DONE') {
          done = true;
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && done) resolve(records);
      else reject(new Error(`VS Code host run failed (exit ${code}); last output:\n${output.slice(-30).join('\n')}`));
    });
  });
}
