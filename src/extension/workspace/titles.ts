import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { cardPaths, displayPath, displayTitle, type TitleContext } from './model/displayTitle';
import type { ToolCallState } from '../session/model/toolCalls';

/**
 * The context of the current workspace folders, built once and shared: titles are computed by the
 * thousand (a tree refresh, a loaded session's chat rows, `api.toolCalls()`), and `displayTitle`
 * keeps the parsed form of a context object, so every title of one workspace reuses it. Forgotten
 * when the folders change (`watchTitleContext`).
 */
let current: TitleContext | undefined;

/** The display-title context of the current workspace (multi-root aware). */
export function titleContext(): TitleContext {
  if (current) return current;
  const folders = vscode.workspace.workspaceFolders ?? [];
  current = {
    folders: folders.map((f) => ({ name: f.name, path: f.uri.fsPath })),
    // Sessions run in the first folder on disk (AcpNative.workspaceRoots).
    cwd: folders.find((f) => f.uri.scheme === 'file')?.uri.fsPath,
    home: os.homedir(),
    sep: path.sep === '\\' ? '\\' : '/',
  };
  return current;
}

/** Keeps `titleContext` in step with the workspace folders (registered once, by the extension's context). */
export function watchTitleContext(): vscode.Disposable {
  const forget = () => (current = undefined);
  return vscode.Disposable.from(vscode.workspace.onDidChangeWorkspaceFolders(forget), { dispose: forget });
}

export function callDisplayTitle(call: ToolCallState, ctx = titleContext()): string {
  return displayTitle(call.title, cardPaths(call), ctx);
}

export function fileDisplayPath(absPath: string, ctx = titleContext()): string {
  return displayPath(absPath, ctx);
}
