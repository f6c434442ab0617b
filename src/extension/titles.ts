import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { cardPaths, displayPath, displayTitle, type TitleContext } from './core/displayTitle';
import type { ToolCallState } from './core/toolCalls';

/** The display-title context of the current workspace (multi-root aware). */
export function titleContext(): TitleContext {
  return {
    folders: (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath })),
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
