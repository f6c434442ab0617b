import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { gitArgs } from './model/shadowGit';

export interface GitResult {
  readonly code: number | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.find((a) => !a.startsWith('-')) ?? ''} failed (${result.code ?? 'killed'}): ${result.stderr.trim().slice(0, 300)}`);
  }
}

/**
 * Runs git as a child process (the extension host never waits on it synchronously), on one
 * shadow repository: `--git-dir` in our storage, `--work-tree` a workspace folder.
 */
export class GitRunner {
  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly env: Record<string, string>,
    private readonly gitPath = 'git',
  ) {}

  /** Runs a command; rejects with `GitError` on a non-zero exit unless `allowFail`. */
  async run(args: readonly string[], options: { input?: string | Buffer; signal?: AbortSignal; allowFail?: boolean; out?: string } = {}): Promise<GitResult> {
    const full = gitArgs(this.gitDir, this.workTree, args);
    const result = await new Promise<GitResult>((resolve, reject) => {
      const child = spawn(this.gitPath, full, { cwd: this.workTree, env: this.env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, signal: options.signal });
      const out: Buffer[] = [];
      let err = '';
      const file = options.out ? fs.createWriteStream(options.out) : undefined;
      if (file) child.stdout.pipe(file);
      else child.stdout.on('data', (d: Buffer) => out.push(d));
      child.stderr.on('data', (d: Buffer) => {
        if (err.length < 64 * 1024) err += d.toString('utf8');
      });
      child.on('error', (error) => {
        file?.destroy();
        reject(error);
      });
      child.on('close', (code) => {
        const done = (): void => resolve({ code, stdout: Buffer.concat(out), stderr: err });
        if (file) {
          if (file.writableFinished) done();
          else file.on('finish', done).on('error', reject);
        } else done();
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.input ?? '');
    });
    if (result.code !== 0 && !options.allowFail) throw new GitError(args, result);
    return result;
  }

  async text(args: readonly string[], options: { input?: string; signal?: AbortSignal } = {}): Promise<string> {
    return (await this.run(args, options)).stdout.toString('utf8');
  }
}
