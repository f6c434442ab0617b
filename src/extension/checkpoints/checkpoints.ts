import { spawn } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { errorMessage, type Logger } from '../base/log';
import { Disposable } from '../base/lifecycle';
import { ShadowRepo } from './shadowRepo';
import { gitEnv, gitIsRecentEnough, parseGitVersion, MIN_GIT, type FileStatus } from './model/shadowGit';
import { checkpointsToPrune, planWorkspaceRestore, promptCheckpoints, restoreIntervals, type CheckpointRecord, type Moment, type Phase, type PruneLimits } from './model/checkpointPlan';

/** Texts up to this size are handed to the action log as its text before (its own in-memory bound). */
const ACTION_LOG_BYTES = 2 * 1024 * 1024;
const PRUNE: PruneLimits = { maxAgeMs: 14 * 24 * 3600_000, maxCount: 400, maxBytes: 2 * 1024 ** 3 };
/** Background gc once this many checkpoints were taken since the last one. */
const GC_EVERY = 25;

export interface CheckpointSettings {
  readonly enabled: boolean;
  /** Files larger than this are listed in a checkpoint, not stored. */
  readonly maxFileBytes: number;
  /** A checkpoint taking longer is abandoned (and said so); the prompt is sent anyway. */
  readonly timeoutMs: number;
}

/** One folder's part of a planned restore, absolute paths. */
export interface FolderRestore {
  readonly folder: string;
  readonly base: string;
  /** The workspace just before the restore: what Undo Restore puts back. */
  readonly before: string;
  readonly write: string[];
  readonly remove: string[];
}

export interface WorkspaceRestore {
  readonly turn: number;
  readonly folders: FolderRestore[];
  /** Changed by the turns and by the user since (or unsaved in an editor): left alone. */
  readonly conflicts: string[];
  /** Files the base checkpoint listed as too large to keep: not restored. */
  readonly notStored: string[];
  /** Every file the user changed since the prompt (saved, between or after the turns): left alone by every undo. */
  readonly userChanged: string[];
}

/**
 * A checkpoint of the whole workspace at each prompt, in shadow git repositories in the
 * extension's storage (one per workspace folder: `--git-dir` there, `--work-tree` the folder), so
 * that what a turn changed by any means (a command, a formatter, a deleted folder, a large file) can
 * be put back byte for byte. git runs as child processes, one at a time; the user's own `.git`,
 * index, hooks and configuration are never read or written (see `model/shadowGit.ts`).
 */
export class Checkpoints extends Disposable {
  private readonly root: string;
  private readonly recordsFile: string;
  private records: CheckpointRecord[] = [];
  private gitState: Promise<'ok' | string> | undefined;
  private toldNoGit = false;
  /** One git job at a time: the repositories' index is shared by every checkpoint. */
  private queue: Promise<unknown> = Promise.resolve();
  private sinceGc = 0;
  private readonly env: Record<string, string>;
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.emitter.event;

  constructor(
    private readonly deps: {
      storageDir: string;
      log: Logger;
      folders: () => string[];
      settings: () => CheckpointSettings;
      gitPath?: string;
    },
  ) {
    super();
    this.root = deps.storageDir;
    this.recordsFile = nodePath.join(this.root, 'records.json');
    this.env = gitEnv(process.env, nodePath.join(this.root, 'home'));
    try {
      const parsed = JSON.parse(fs.readFileSync(this.recordsFile, 'utf8')) as { version?: number; records?: CheckpointRecord[] };
      if (parsed.version === 1 && Array.isArray(parsed.records)) this.records = parsed.records;
    } catch {
      // None yet, or unreadable: checkpoints start afresh (the repositories' objects stay until gc).
    }
  }

  /** Whether checkpoints can be taken (git found and recent enough); says once when not. */
  async available(): Promise<boolean> {
    if (!this.deps.settings().enabled) return false;
    this.gitState ??= this.checkGit();
    const state = await this.gitState;
    if (state === 'ok') return true;
    if (!this.toldNoGit) {
      this.toldNoGit = true;
      this.deps.log.warn(`Checkpoints: ${state}`);
      void vscode.window.showWarningMessage(`ACP Native: no checkpoints of the whole workspace: ${state}. Restore and Undo cover what the agent reported, as before.`);
    }
    return false;
  }

  private checkGit(): Promise<'ok' | string> {
    return new Promise((resolve) => {
      const child = spawn(this.deps.gitPath ?? 'git', ['--version'], { env: this.env, windowsHide: true });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('error', () => resolve('git was not found on PATH'));
      child.on('close', () => {
        const version = parseGitVersion(out);
        if (!version) resolve('git was not found on PATH');
        else if (!gitIsRecentEnough(version)) resolve(`git ${version.join('.')} is older than ${MIN_GIT.join('.')}`);
        else resolve('ok');
      });
    });
  }

  /** The records of a session, oldest first. */
  recordsOf(sessionId: string): CheckpointRecord[] {
    return this.records.filter((r) => r.sessionId === sessionId);
  }

  /** The prompts of a session that have a checkpoint. */
  prompts(sessionId: string): { turn: number; id: string }[] {
    return promptCheckpoints(this.records, sessionId);
  }

  /**
   * Takes a checkpoint of every workspace folder. Never rejects: a folder that fails or takes
   * longer than the timeout is skipped (and logged); undefined when checkpoints are off.
   */
  async take(sessionId: string, turn: number, phase: Phase): Promise<CheckpointRecord | undefined> {
    if (!(await this.available())) return undefined;
    return this.serial(async () => {
      const id = `${Date.now().toString(36)}-${crypto.randomBytes(4).toString('hex')}`;
      const commits: Record<string, string> = {};
      const tooLarge: Record<string, string[]> = {};
      const skipped: Record<string, string> = {};
      const { timeoutMs, maxFileBytes } = this.deps.settings();
      for (const folder of this.deps.folders()) {
        const abort = new AbortController();
        const timer = setTimeout(() => abort.abort(), timeoutMs);
        try {
          const made = await this.snapshotFolder(folder, `refs/acp/${id}`, maxFileBytes, abort.signal);
          commits[folder] = made.commit;
          if (made.tooLarge.length) tooLarge[folder] = made.tooLarge;
        } catch (error) {
          skipped[folder] = abort.signal.aborted ? `took longer than ${timeoutMs / 1000} s` : errorMessage(error);
          this.deps.log.warn(`Checkpoints: skipped ${folder} at prompt ${turn + 1} (${phase}): ${skipped[folder]}`);
        } finally {
          clearTimeout(timer);
        }
      }
      const record: CheckpointRecord = { id, sessionId, turn, phase, time: Date.now(), commits, tooLarge, ...(Object.keys(skipped).length ? { skipped } : {}) };
      // A prompt at a turn the session already had checkpoints for: the id is used again (an agent
      // started afresh numbers its sessions from 1 again). The earlier life's checkpoints go.
      if (phase === 'begin') this.records = this.records.filter((r) => r.sessionId !== sessionId || r.turn < turn);
      this.records.push(record);
      await this.saveRecords();
      this.emitter.fire();
      if (++this.sinceGc >= GC_EVERY) {
        this.sinceGc = 0;
        void this.serial(() => this.prune());
      }
      return record;
    });
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private repoOf(folder: string): ShadowRepo {
    const name = crypto.createHash('sha256').update(folder).digest('hex').slice(0, 16);
    return new ShadowRepo(nodePath.join(this.root, 'repos', name), folder, this.env, (m) => this.deps.log.warn(m), this.deps.gitPath);
  }

  private async snapshotFolder(folder: string, ref: string, maxFileBytes: number, signal?: AbortSignal): Promise<{ commit: string; tooLarge: string[] }> {
    await fsp.mkdir(nodePath.join(this.root, 'home'), { recursive: true });
    const filesExclude = vscode.workspace.getConfiguration('files', vscode.Uri.file(folder)).get<Record<string, unknown>>('exclude', {});
    return this.repoOf(folder).snapshot(ref, { maxFileBytes, filesExclude, signal });
  }

  private async saveRecords(): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true });
    const tmp = `${this.recordsFile}.tmp`;
    await fsp.writeFile(tmp, JSON.stringify({ version: 1, records: this.records }));
    await fsp.rename(tmp, this.recordsFile);
  }

  /** Drops old checkpoints (age, count, size) and lets git gc collect their objects, in the background. */
  private async prune(): Promise<void> {
    try {
      let size = 0;
      for (const folder of this.deps.folders()) size += await dirSize(this.repoOf(folder).git.gitDir);
      const drop = checkpointsToPrune(this.records, Date.now(), PRUNE, size);
      for (const folder of this.deps.folders()) {
        const repo = this.repoOf(folder);
        if (!fs.existsSync(repo.git.gitDir)) continue;
        // The refs of dropped checkpoints, and of any no record names (a session id used again, a crash).
        const kept = new Set(this.records.filter((r) => !drop.has(r.id)).map((r) => `refs/acp/${r.id}`));
        const refs = (await repo.git.text(['for-each-ref', '--format=%(refname)', 'refs/acp/'])).split('\n').filter((r) => r && !kept.has(r) && !recentRestore(r));
        await repo.drop(refs);
      }
      this.records = this.records.filter((r) => !drop.has(r.id));
      await this.saveRecords();
    } catch (error) {
      this.deps.log.warn(`Checkpoints: pruning failed: ${errorMessage(error)}`);
    }
  }

  /** Runs the pruning now (tests, the bench). */
  pruneNow(): Promise<void> {
    return this.serial(() => this.prune());
  }

  private folderOf(path: string, record: CheckpointRecord): string | undefined {
    return Object.keys(record.commits)
      .filter((f) => path === f || path.startsWith(f.endsWith(nodePath.sep) ? f : f + nodePath.sep))
      .sort((a, b) => b.length - a.length)[0];
  }

  /**
   * A file's bytes at the begin checkpoint of a prompt, for the action log's text before: 'absent'
   * when the checkpoint shows it did not exist (and would have kept it), undefined when it cannot
   * tell (no checkpoint, ignored, too large, in a nested repository).
   */
  async fileAtPrompt(sessionId: string, turn: number, path: string): Promise<Uint8Array | 'absent' | undefined> {
    const record = this.records.filter((r) => r.sessionId === sessionId && r.turn === turn && r.phase === 'begin').at(-1);
    if (!record) return undefined;
    const folder = this.folderOf(path, record);
    if (!folder) return undefined;
    const repo = this.repoOf(folder);
    if (record.tooLarge[folder]?.includes(repo.rel(path))) return undefined;
    return this.serial(async () => {
      const entry = await repo.entry(record.commits[folder], path);
      if (entry) {
        if (entry.type !== 'blob' || entry.mode === '120000' || entry.size > ACTION_LOG_BYTES) return undefined;
        return new Uint8Array(await repo.blob(entry.blob));
      }
      // Not in the checkpoint: new, unless git would not have kept it there anyway.
      if (await repo.ignored(path)) return undefined;
      for (let dir = nodePath.dirname(path); dir.length > folder.length; dir = nodePath.dirname(dir)) if (fs.existsSync(nodePath.join(dir, '.git'))) return undefined;
      return 'absent';
    });
  }

  /**
   * What a restore to before `turn` would do, planned against a checkpoint of the workspace as it
   * is now (which Undo Restore goes back to). `skip`: files another undo handles. Undefined when
   * the prompt has no checkpoint.
   */
  async planRestore(sessionId: string, turn: number, skip: ReadonlySet<string>): Promise<WorkspaceRestore | undefined> {
    if (!(await this.available())) return undefined;
    const intervals = restoreIntervals(this.records, sessionId, turn);
    if (!intervals) return undefined;
    const byId = new Map(this.records.map((r) => [r.id, r]));
    const base = byId.get(intervals.base);
    if (!base) return undefined;
    const dirty = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file').map((d) => d.uri.fsPath));
    return this.serial(async () => {
      const folders: FolderRestore[] = [];
      const conflicts: string[] = [];
      const notStored: string[] = [];
      const userChanged: string[] = [];
      const nowRef = `refs/acp/restore-${Date.now().toString(36)}`;
      const { maxFileBytes } = this.deps.settings();
      for (const folder of Object.keys(base.commits)) {
        if (!this.deps.folders().includes(folder)) continue;
        const repo = this.repoOf(folder);
        const now = await this.snapshotFolder(folder, nowRef, maxFileBytes);
        const commitAt = (m: Moment): string | undefined => (m === 'now' ? now.commit : byId.get(m)?.commits[folder]);
        const diff = async (from: Moment, to: Moment): Promise<Map<string, FileStatus>> => {
          const a = commitAt(from);
          const b = commitAt(to);
          return a && b ? repo.diff(a, b) : new Map();
        };
        const rel = (p: string): string => repo.rel(p);
        const abs = (p: string): string => repo.abs(p);
        const sinceBase = await diff(intervals.base, 'now');
        // A file too large for the checkpoint now has no "now" entry: it counts as changed only when the turns' checkpoints say so.
        const agent = await Promise.all(intervals.agent.map((i) => diff(i.from, i.to)));
        const user = await Promise.all(intervals.user.map((i) => diff(i.from, i.to)));
        const skipRel = new Set([...skip, ...dirty].filter((p) => this.folderOf(p, base) === folder).map(rel));
        const plan = planWorkspaceRestore({ sinceBase, agent, user, skip: skipRel, tooLargeAtBase: new Set(base.tooLarge[folder] ?? []) });
        for (const p of base.tooLarge[folder] ?? []) if (sinceBase.has(p)) notStored.push(abs(p));
        conflicts.push(...plan.conflicts.map(abs));
        userChanged.push(...plan.userChanged.map(abs));
        // Unsaved text in an editor is the user's: never overwritten, listed with the conflicts.
        for (const [p] of sinceBase) if (dirty.has(abs(p)) && agent.some((d) => d.has(p)) && !skip.has(abs(p))) conflicts.push(abs(p));
        folders.push({
          folder,
          base: base.commits[folder],
          before: now.commit,
          write: plan.steps.filter((s) => s.action === 'write').map((s) => abs(s.path)),
          remove: plan.steps.filter((s) => s.action === 'delete').map((s) => abs(s.path)),
        });
      }
      const count = (k: 'write' | 'remove'): number => folders.reduce((n, f) => n + f[k].length, 0);
      this.deps.log.info(`Checkpoints: restore to before prompt ${turn + 1}: ${count('write')} to write, ${count('remove')} to delete, ${conflicts.length} changed by the user since`);
      return { turn, folders, conflicts, notStored, userChanged };
    });
  }

  /** Carries out a planned restore. */
  async applyRestore(plan: WorkspaceRestore, markOwn: (path: string) => void): Promise<string[]> {
    return this.serial(async () => {
      const done: string[] = [];
      for (const f of plan.folders) done.push(...(await this.repoOf(f.folder).putBack(f.base, f.write, f.remove, markOwn)));
      return done;
    });
  }

  /** Takes a restore back: the files it wrote or deleted as they were just before it. */
  async undoRestore(plan: WorkspaceRestore, markOwn: (path: string) => void): Promise<string[]> {
    return this.serial(async () => {
      const done: string[] = [];
      for (const f of plan.folders) {
        const paths = [...f.write, ...f.remove];
        const repo = this.repoOf(f.folder);
        const present = await repo.present(f.before, paths);
        done.push(...(await repo.putBack(f.before, paths.filter((p) => present.has(p)), paths.filter((p) => !present.has(p)), markOwn)));
      }
      return done;
    });
  }

  /** Waits for the git work queued so far (tests). */
  async idle(): Promise<void> {
    await this.serial(async () => undefined);
  }
}

/** A restore's checkpoint of the workspace before it (Undo Restore's) is kept a day. */
function recentRestore(ref: string): boolean {
  const m = /^refs\/acp\/restore-([0-9a-z]+)$/.exec(ref);
  return m !== null && Date.now() - parseInt(m[1], 36) < 24 * 3600_000;
}

/** The workspace folders on disk: each has its own shadow repository. */
export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

async function dirSize(dir: string): Promise<number> {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = nodePath.join(dir, e.name);
    if (e.isDirectory()) total += await dirSize(p);
    else total += await fsp.stat(p).then((s) => s.size, () => 0);
  }
  return total;
}
