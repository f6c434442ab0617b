/**
 * Issue 26's checkpoint of a whole workspace: 10,000 files, 200 MB (generated in the temp folder),
 * through the shadow repository the extension uses (`src/extension/checkpoints/shadowRepo.ts`,
 * git as a child process), against a plain `git add -A && git commit` of the same tree in a
 * throw-away repository, in the same run. Also: a second checkpoint after 10 files changed (what
 * each prompt costs once the index is warm), and the event loop's longest block while the
 * checkpoint runs (our own JavaScript on the extension host's thread; git runs beside it).
 *
 * Knobs: ACP_BENCH_CP_FILES (10000), ACP_BENCH_CP_MB (200), ACP_BENCH_CP_REPS (2).
 */
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ShadowRepo } from '../src/extension/checkpoints/shadowRepo';
import { gitEnv } from '../src/extension/checkpoints/model/shadowGit';
import { envNumber } from './support/knobs';

function makeWorkspace(dir: string, files: number, mb: number): void {
  const per = Math.floor((mb * 1024 * 1024) / files);
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, `d${i % 100}`, `e${Math.floor(i / 100) % 10}`);
    fs.mkdirSync(sub, { recursive: true });
    // Half text-like (compressible), half random: a source tree with some assets.
    const bytes = i % 2 ? crypto.randomBytes(per) : Buffer.from(`line ${i} `.repeat(Math.ceil(per / 10)).slice(0, per));
    fs.writeFileSync(path.join(sub, `f${i}.dat`), bytes);
  }
}

async function timed<T>(work: () => Promise<T> | T): Promise<{ ms: number; blockMs: number; value: T }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const start = performance.now();
  const value = await work();
  const ms = performance.now() - start;
  histogram.disable();
  return { ms, blockMs: Math.max(0, histogram.max / 1e6 - 1), value };
}

export default async function checkpointsBench(): Promise<void> {
  const files = envNumber('ACP_BENCH_CP_FILES', 10_000);
  const mb = envNumber('ACP_BENCH_CP_MB', 200);
  const reps = envNumber('ACP_BENCH_CP_REPS', 2);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-bench-cp-'));
  try {
    const ws = path.join(tmp, 'ws');
    fs.mkdirSync(ws);
    makeWorkspace(ws, files, mb);
    const env = gitEnv(process.env, path.join(tmp, 'home'));
    fs.mkdirSync(path.join(tmp, 'home'));
    const rows: string[] = [];
    for (let rep = 0; rep < reps; rep++) {
      // Baseline: the same tree committed by plain git in a throw-away repository.
      const plainDir = path.join(tmp, `plain-${rep}`);
      const plain = await timed(() => {
        execFileSync('git', [`--git-dir=${plainDir}`, `--work-tree=${ws}`, 'init', '-q'], { env });
        execFileSync('git', [`--git-dir=${plainDir}`, `--work-tree=${ws}`, 'add', '-A'], { env, cwd: ws });
        execFileSync('git', [`--git-dir=${plainDir}`, `--work-tree=${ws}`, '-c', 'user.name=b', '-c', 'user.email=b@b', 'commit', '-q', '-m', 'x'], { env, cwd: ws });
      });
      fs.rmSync(plainDir, { recursive: true, force: true, maxRetries: 5 });
      const repo = new ShadowRepo(path.join(tmp, `shadow-${rep}`), ws, env, () => undefined);
      const first = await timed(() => repo.snapshot('refs/acp/first', { maxFileBytes: 50 * 1024 * 1024, filesExclude: { '**/.git': true } }));
      for (let i = 0; i < 10; i++) fs.appendFileSync(path.join(ws, `d${i}`, 'e0', `f${i}.dat`), 'changed');
      const second = await timed(() => repo.snapshot('refs/acp/second', { maxFileBytes: 50 * 1024 * 1024, filesExclude: { '**/.git': true } }));
      fs.rmSync(path.join(tmp, `shadow-${rep}`), { recursive: true, force: true, maxRetries: 5 });
      rows.push(
        `  run ${rep + 1}: git add -A && git commit ${plain.ms.toFixed(0)} ms | checkpoint ${first.ms.toFixed(0)} ms (×${(first.ms / plain.ms).toFixed(2)}), longest block ${first.blockMs.toFixed(1)} ms | next checkpoint, 10 files changed: ${second.ms.toFixed(0)} ms (×${(second.ms / plain.ms).toFixed(3)}), longest block ${second.blockMs.toFixed(1)} ms`,
      );
    }
    console.log(`checkpoint of ${files} files, ${mb} MB, against plain git in a throw-away repository`);
    for (const row of rows) console.log(row);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
  }
}
