import * as vscode from 'vscode';

/** The first workspace folder is a session's cwd; the others are additional directories. */
export function workspaceRoots(): { cwd: string; additional: string[] } {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const [cwd, ...additional] = folders;
  if (!cwd) throw new Error('ACP Native needs a folder: open a folder or workspace to start an agent.');
  return { cwd, additional };
}

/** The first folder on disk, if the workspace has one (MCP servers' `${workspaceFolder}`). */
export function firstFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
}
