import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { decodeText } from './model/actionHunks';
import { canonicalSpelling } from '../workspace/model/paths';
import { MAX_SNAPSHOT_BYTES, type Snapshot } from './model/actionLog';
import type { CurrentFile } from './model/undoPlan';

/**
 * Files up to this size get a whole-file undo from a copy in the workspace storage; larger ones are
 * listed without undo. The copy runs off the event loop, so the bound is what a change may cost on
 * disk (each pending one a copy of its file, until kept or undone) and how long Undo's check of the
 * file (a streamed hash, ~0.3 s for 64 MB) makes the user wait.
 */
export const MAX_LARGE_BYTES = 64 * 1024 * 1024;

/**
 * Reads a file's bytes now, synchronously: the action log must read a file the moment a tool call
 * names it, before the agent (a separate process) writes it; an `await` would let the agent win.
 */
export function readSnapshotSync(path: string): Snapshot {
  try {
    // No ENOENT thrown for a file that does not exist yet (see `realSync`).
    const stat = fs.statSync(path, { throwIfNoEntry: false });
    if (!stat) return { kind: 'absent' };
    if (!stat.isFile()) return { kind: 'unknown', reason: 'not a regular file' };
    if (stat.size > MAX_LARGE_BYTES) return { kind: 'unknown', reason: `larger than ${MAX_LARGE_BYTES / 1024 / 1024} MB` };
    // Its bytes are not read: the capture copies it to the storage when it needs its text before.
    if (stat.size > MAX_SNAPSHOT_BYTES) return { kind: 'large', size: stat.size };
    return { kind: 'bytes', bytes: new Uint8Array(fs.readFileSync(path)) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' };
    return { kind: 'unknown', reason: `unreadable (${(error as Error).message})` };
  }
}

/**
 * The path with symlinks resolved (of its folder when the file does not exist yet), spelled under
 * its workspace folder: the key the review keys files by (see `workspaceText.resolvePath`, which
 * is the same, asynchronously; capture must not wait).
 */
export function realPath(path: string): string {
  return canonicalSpelling(realSync(path), workspaceFolderReals());
}

/**
 * The workspace folders with their real paths, resolved once per set of folders: capture asks for
 * every path of every tool call, and a storm of calls resolved the folders again each time.
 */
let folderReals: { key: string; folders: { path: string; real: string }[] } | undefined;

function workspaceFolderReals(): { path: string; real: string }[] {
  const paths = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const key = paths.join('\0');
  if (folderReals?.key !== key) folderReals = { key, folders: paths.map((path) => ({ path, real: realSync(path) })) };
  return folderReals.folders;
}

function realSync(path: string): string {
  // Asked first, not caught: agents name files that do not exist yet (a file to create), and a
  // thrown error costs far more than the check; a storm of such calls spent ~130 ms throwing.
  if (fs.existsSync(path)) {
    try {
      return fs.realpathSync.native(path);
    } catch {
      // Gone meanwhile, or unreadable: resolve its folder instead.
    }
  }
  const folder = nodePath.dirname(path);
  if (!fs.existsSync(folder)) return path;
  try {
    return nodePath.join(fs.realpathSync.native(folder), nodePath.basename(path));
  } catch {
    return path;
  }
}

export function openDocument(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === path);
}

/**
 * The file as the user sees it: a document's unsaved text, else the text on disk (a document
 * without unsaved changes may not have caught up with what the agent just wrote).
 */
export function currentFile(path: string, open = openDocument(path)): CurrentFile {
  if (open?.isDirty) return { kind: 'text', text: open.getText() };
  const snapshot = readSnapshotSync(path);
  switch (snapshot.kind) {
    case 'absent':
      return { kind: 'absent' };
    case 'unknown':
      return { kind: 'unreadable', reason: snapshot.reason };
    case 'large':
      return { kind: 'unreadable', reason: `larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MB` };
    case 'bytes': {
      const decoded = decodeText(snapshot.bytes);
      return decoded.ok ? { kind: 'text', text: decoded.text } : { kind: 'unreadable', reason: decoded.reason };
    }
  }
}
