import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { cardPaths, displayPath, displayTitle, type TitleContext } from './core/displayTitle';
import type { ToolCallState } from './core/toolCalls';

/** The display-title context of the current workspace (multi-root aware). */
export function titleContext(): TitleContext {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return {
    folders: folders.map((f) => ({ name: f.name, path: f.uri.fsPath })),
    // Sessions run in the first folder on disk (AcpNative.workspaceRoots).
    cwd: folders.find((f) => f.uri.scheme === 'file')?.uri.fsPath,
    home: os.homedir(),
    sep: path.sep === '\\' ? '\\' : '/',
  };
}

export function callDisplayTitle(call: ToolCallState, ctx = titleContext()): string {
  return displayTitle(call.title, cardPaths(call), ctx);
}

export function fileDisplayPath(absPath: string, ctx = titleContext()): string {
  return displayPath(absPath, ctx);
}
