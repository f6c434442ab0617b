import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as nodePath from 'node:path';
import { GitRunner } from './gitRunner';
import { addPathspecs, excludeLines, parseNameStatus, splitNul, type FileStatus } from './model/shadowGit';

/**
 * The shadow repository of one workspace folder (no `vscode` here: the bench and unit tests drive
 * it in plain Node). Its git directory is in our storage and its work tree the folder; what it
 * stores is the folder as git sees it (`.gitignore` honoured, `files.exclude` in `info/exclude`,
 * nested repositories as a link only), files over the size limit listed, not stored.
 */
export class ShadowRepo {
  readonly git: GitRunner;

  constructor(
    gitDir: string,
    readonly folder: string,
    env: Record<string, string>,
    private readonly warn: (message: string) => void,
    gitPath?: string,
  ) {
    this.git = new GitRunner(gitDir, folder, env, gitPath);
  }

  /** Made (again, when it is missing or broken); `filesExclude` is VS Code's setting for the folder. */
  async ensure(filesExclude: Readonly<Record<string, unknown>>): Promise<void> {
    const { git } = this;
    const ok = fs.existsSync(nodePath.join(git.gitDir, 'HEAD')) && (await git.run(['rev-parse', '--git-dir'], { allowFail: true })).code === 0;
    if (!ok) {
      if (fs.existsSync(git.gitDir)) this.warn(`Checkpoints: the shadow repository of ${this.folder} was broken or incomplete; made afresh`);
      await fsp.rm(git.gitDir, { recursive: true, force: true });
      await fsp.mkdir(nodePath.dirname(git.gitDir), { recursive: true });
      await git.run(['init', '-q']);
    }
    // A git killed by the timeout leaves its lock; only our own git ever uses this repository.
    await fsp.rm(nodePath.join(git.gitDir, 'index.lock'), { force: true });
    await fsp.mkdir(nodePath.join(git.gitDir, 'info'), { recursive: true });
    await fsp.writeFile(nodePath.join(git.gitDir, 'info', 'exclude'), excludeLines(filesExclude).join('\n') + '\n');
  }

  /** A commit of the folder as it is now, under `ref`; a broken repository is made afresh once. */
  async snapshot(ref: string, options: { maxFileBytes: number; filesExclude: Readonly<Record<string, unknown>>; signal?: AbortSignal }): Promise<{ commit: string; tooLarge: string[] }> {
    try {
      return await this.snapshotOnce(ref, options);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      this.warn(`Checkpoints: ${(error as Error).message}; making the shadow repository of ${this.folder} again`);
      await fsp.rm(this.git.gitDir, { recursive: true, force: true });
      return this.snapshotOnce(ref, options);
    }
  }

  private async snapshotOnce(ref: string, options: { maxFileBytes: number; filesExclude: Readonly<Record<string, unknown>>; signal?: AbortSignal }): Promise<{ commit: string; tooLarge: string[] }> {
    const { git } = this;
    const { signal } = options;
    await this.ensure(options.filesExclude);
    // Only new and modified files can have grown past the limit; the index's stat cache says which.
    const listed = splitNul(await git.text(['ls-files', '-z', '--others', '--modified', '--exclude-standard'], { signal }));
    // A folder listed as such holds a repository of its own: left out whole (its `.git` is its owner's).
    const nested = listed.filter((p) => p.endsWith('/')).map((p) => p.slice(0, -1));
    const candidates = listed.filter((p) => !p.endsWith('/'));
    const tooLarge: string[] = [];
    for (let i = 0; i < candidates.length; i += 256) {
      const sizes = await Promise.all(candidates.slice(i, i + 256).map((p) => fsp.lstat(nodePath.join(this.folder, p)).then((s) => (s.isFile() ? s.size : 0), () => 0)));
      sizes.forEach((size, j) => {
        if (size > options.maxFileBytes) tooLarge.push(candidates[i + j]);
      });
    }
    // --ignore-errors: an unreadable file keeps its old entry rather than fail the whole checkpoint.
    const added = await git.run(['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: addPathspecs([...tooLarge, ...nested]), signal, allowFail: true });
    if (added.code !== 0) {
      if (signal?.aborted || !/unable to|could not open|Permission denied/i.test(added.stderr)) throw new Error(`git add failed: ${added.stderr.trim().slice(0, 300)}`);
      this.warn(`Checkpoints: left out of the checkpoint of ${this.folder}: ${added.stderr.trim().slice(0, 300)}`);
    }
    if (tooLarge.length) {
      await git.run(['rm', '--cached', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], { input: tooLarge.map((p) => `:(literal)${p}`).join('\0'), signal });
    }
    const tree = (await git.text(['write-tree'], { signal })).trim();
    const commit = (await git.text(['commit-tree', tree, '-m', ref], { signal })).trim();
    await git.run(['update-ref', ref, commit], { signal });
    return { commit, tooLarge };
  }

  /** What changed from one commit to another. */
  async diff(from: string, to: string): Promise<Map<string, FileStatus>> {
    return parseNameStatus(await this.git.text(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to]));
  }

  rel(path: string): string {
    return nodePath.relative(this.folder, path).split(nodePath.sep).join('/');
  }

  abs(rel: string): string {
    return nodePath.join(this.folder, ...rel.split('/'));
  }

  /** A file's entry in a commit: mode, blob id and size; undefined when the commit has no such file. */
  async entry(commit: string, path: string): Promise<{ mode: string; type: string; blob: string; size: number } | undefined> {
    const out = (await this.git.run(['ls-tree', '-z', '-l', commit, '--', `:(literal)${this.rel(path)}`], { allowFail: true })).stdout.toString('utf8');
    const m = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t/.exec(out);
    return m ? { mode: m[1], type: m[2], blob: m[3], size: m[4] === '-' ? 0 : Number(m[4]) } : undefined;
  }

  async blob(id: string): Promise<Buffer> {
    return (await this.git.run(['cat-file', 'blob', id])).stdout;
  }

  /** Whether git leaves the path out of the folder's checkpoints (`.gitignore`, `files.exclude`). */
  async ignored(path: string): Promise<boolean> {
    return (await this.git.run(['check-ignore', '-q', '--no-index', '--', this.rel(path)], { allowFail: true })).code === 0;
  }

  /** Files as a commit holds them (byte for byte, the executable bit and symlinks too), and deletions. */
  async putBack(commit: string, write: readonly string[], remove: readonly string[], markOwn: (path: string) => void): Promise<string[]> {
    const done: string[] = [];
    for (const path of write) {
      const entry = await this.entry(commit, path);
      if (!entry || entry.type !== 'blob') continue;
      markOwn(path);
      await fsp.mkdir(nodePath.dirname(path), { recursive: true });
      if (entry.mode === '120000') {
        const target = (await this.blob(entry.blob)).toString('utf8');
        await fsp.rm(path, { force: true });
        await fsp.symlink(target, path);
      } else {
        // Written beside the file, then renamed over it: a reader never sees half of it.
        const tmp = `${path}.acp-restore-${process.pid}`;
        await this.git.run(['cat-file', 'blob', entry.blob], { out: tmp });
        await fsp.chmod(tmp, entry.mode === '100755' ? 0o755 : 0o644).catch(() => undefined);
        await fsp.rename(tmp, path);
      }
      done.push(path);
    }
    for (const path of remove) {
      markOwn(path);
      await fsp.rm(path, { force: true });
      done.push(path);
      // The folders a turn made and that are empty now go too.
      for (let dir = nodePath.dirname(path); dir.length > this.folder.length; dir = nodePath.dirname(dir)) {
        try {
          await fsp.rmdir(dir);
        } catch {
          break;
        }
      }
    }
    return done;
  }

  /** Which of `paths` a commit holds. */
  async present(commit: string, paths: readonly string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    const out = await this.git.text(['ls-tree', '-r', '-z', '--name-only', '--full-tree', commit, '--', ...paths.map((p) => `:(literal)${this.rel(p)}`)]);
    return new Set(splitNul(out).map((r) => this.abs(r)));
  }

  /** Deletes checkpoints' refs and lets git collect what no ref keeps. */
  async drop(refs: readonly string[]): Promise<void> {
    if (refs.length) await this.git.run(['update-ref', '--stdin'], { input: refs.map((r) => `delete ${r}\n`).join('') });
    await this.git.run(['gc', '--quiet', '--prune=now'], { allowFail: true });
  }
}
