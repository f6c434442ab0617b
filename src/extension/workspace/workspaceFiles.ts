import * as vscode from 'vscode';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { foldersOf, rankMentions, type MentionCandidate } from './model/fuzzyMatch';
import type { ChatMention } from '../../protocol/chat';
import { errorMessage, type Logger } from '../base/log';
import { Disposable } from '../base/lifecycle';

/** An index larger than this stops growing (and says so in the log): memory stays bounded. */
const MAX_FILES = 200_000;
/** Completions shown for one query. */
const MAX_RESULTS = 50;

/**
 * The workspace's files and folders for `@` mentions, listed once per session of the window and
 * kept current with a file watcher. Listed with the ripgrep that ships inside VS Code (what VS
 * Code's own search uses): it honours `.gitignore` (also outside a git repository) and
 * `files.exclude`. Without it, `workspace.findFiles` (which honours `files.exclude` only).
 * Paths are relative to the workspace, prefixed with the folder name in a multi-root workspace.
 */
export class WorkspaceFiles extends Disposable {
  private files: Set<string> | undefined;
  private folders: string[] = [];
  private loading: Promise<Set<string>> | undefined;
  /** How the last listing was made and how long it took (tests and the README's figure). */
  lastListing: { via: 'ripgrep' | 'findFiles'; files: number; ms: number } | undefined;

  constructor(private readonly log: Logger) {
    super();
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/*', false, true, false));
    this._register(watcher.onDidCreate((uri) => this.files && this.add(uri)));
    this._register(watcher.onDidDelete((uri) => this.files && this.remove(uri)));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => (e.affectsConfiguration('files.exclude') ? this.invalidate() : undefined)),
    );
  }

  /** The best matches for what was typed after `@`: open editors first. */
  async query(text: string): Promise<ChatMention[]> {
    const files = await this.list();
    const open = openEditorPaths();
    const candidates = function* (): Iterable<MentionCandidate> {
      for (const p of open) yield { path: p, isFolder: false, open: true };
      for (const p of files) if (!open.has(p)) yield { path: p, isFolder: false };
    };
    const fileMatches = rankMentions(text, candidates(), MAX_RESULTS);
    const folderMatches = text ? rankMentions(text, this.folders.map((p) => ({ path: p, isFolder: true })), 10) : [];
    return [...fileMatches, ...folderMatches]
      .sort((a, b) => b.score - a.score)
      .slice(0, MAX_RESULTS)
      .map((m) => ({ path: m.path, isFolder: m.isFolder, open: m.open === true }));
  }

  /** The absolute URI of a mentioned path, or undefined when it is not in a workspace folder. */
  resolve(relative: string): vscode.Uri | undefined {
    const folders = fileFolders();
    if (folders.length > 1) {
      const [name, ...rest] = relative.split('/');
      const folder = folders.find((f) => f.name === name);
      return folder ? vscode.Uri.joinPath(folder.uri, ...rest) : undefined;
    }
    return folders[0] ? vscode.Uri.joinPath(folders[0].uri, ...relative.split('/')) : undefined;
  }

  private invalidate(): void {
    this.files = undefined;
    this.loading = undefined;
  }

  private list(): Promise<Set<string>> {
    if (this.files) return Promise.resolve(this.files);
    this.loading ??= this.load().then((files) => {
      this.files = files;
      this.folders = foldersOf(files);
      return files;
    });
    return this.loading;
  }

  private async load(): Promise<Set<string>> {
    const started = performance.now();
    const folders = fileFolders();
    const rg = bundledRipgrep();
    let files: string[] = [];
    let via: 'ripgrep' | 'findFiles' = 'findFiles';
    if (rg) {
      try {
        const lists = await Promise.all(folders.map((f) => ripgrepFiles(rg, f.uri.fsPath, excludeGlobs(f.uri))));
        files = lists.flatMap((list, i) => (folders.length > 1 ? list.map((p) => `${folders[i]?.name}/${p}`) : list));
        via = 'ripgrep';
      } catch (error) {
        this.log.warn(`@ mentions: ripgrep failed (${errorMessage(error)}), listing with findFiles`);
      }
    }
    if (via === 'findFiles') {
      const uris = await vscode.workspace.findFiles('**/*', undefined, MAX_FILES);
      files = uris.flatMap((u) => relativeOf(u) ?? []);
    }
    if (files.length >= MAX_FILES) this.log.warn(`@ mentions: the workspace has more than ${MAX_FILES} files; only the first are offered`);
    const set = new Set(files.slice(0, MAX_FILES));
    this.lastListing = { via, files: set.size, ms: Math.round(performance.now() - started) };
    this.log.info(`@ mentions: listed ${set.size} files with ${via} in ${this.lastListing.ms} ms`);
    return set;
  }

  private add(uri: vscode.Uri): void {
    const rel = relativeOf(uri);
    if (!rel || !this.files || this.files.size >= MAX_FILES || rel.split('/').includes('.git')) return;
    // A folder created: its files come with their own events; keep the folder list current.
    void vscode.workspace.fs.stat(uri).then(
      (stat) => {
        if (stat.type & vscode.FileType.Directory) {
          if (!this.folders.includes(rel)) this.folders.push(rel);
        } else this.files?.add(rel);
      },
      () => undefined,
    );
  }

  private remove(uri: vscode.Uri): void {
    const rel = relativeOf(uri);
    if (!rel || !this.files) return;
    this.files.delete(rel);
    const prefix = `${rel}/`;
    for (const file of this.files) if (file.startsWith(prefix)) this.files.delete(file);
    this.folders = this.folders.filter((f) => f !== rel && !f.startsWith(prefix));
  }
}

function fileFolders(): readonly vscode.WorkspaceFolder[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

function relativeOf(uri: vscode.Uri): string | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder || folder.uri.scheme !== 'file') return undefined;
  const rel = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
  if (!rel || rel.startsWith('..')) return undefined;
  return fileFolders().length > 1 ? `${folder.name}/${rel}` : rel;
}

function openEditorPaths(): Set<string> {
  const open = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      if (tab.input instanceof vscode.TabInputText) {
        const rel = relativeOf(tab.input.uri);
        if (rel) open.add(rel);
      }
    }
  }
  return open;
}

/**
 * VS Code's own ripgrep (desktop keeps it unpacked next to the asar): `@vscode/ripgrep` in older
 * builds (1.99), `@vscode/ripgrep-universal` with a binary per platform in newer ones (1.139).
 */
function bundledRipgrep(): string | undefined {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  for (const modules of ['node_modules', 'node_modules.asar.unpacked']) {
    for (const bin of [['ripgrep', 'bin'], ['ripgrep-universal', 'bin', `${process.platform}-${process.arch}`]]) {
      const candidate = path.join(vscode.env.appRoot, modules, '@vscode', ...bin, exe);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The `files.exclude` patterns in force for a folder, as ripgrep globs. */
function excludeGlobs(folder: vscode.Uri): string[] {
  const excluded = vscode.workspace.getConfiguration('files', folder).get<Record<string, unknown>>('exclude', {});
  return Object.entries(excluded)
    .filter(([, on]) => on === true)
    .map(([glob]) => `!${glob}`);
}

function ripgrepFiles(rg: string, cwd: string, globs: string[]): Promise<string[]> {
  const args = ['--files', '--hidden', '--no-require-git', '--no-config', '--glob', '!.git', ...globs.flatMap((g) => ['--glob', g])];
  return new Promise((resolve, reject) => {
    execFile(rg, args, { cwd, maxBuffer: 256 * 1024 * 1024, windowsHide: true }, (error, stdout) => {
      // Exit 1 is "nothing found"; partial errors (unreadable folders) still list the rest.
      if (error && typeof error.code === 'number' && error.code > 1 && !stdout) return reject(error);
      if (error && typeof error.code !== 'number') return reject(error);
      resolve(stdout.split('\n').filter(Boolean).map((p) => p.split(path.sep).join('/')));
    });
  });
}
