import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { cardPaths, displayPath, displayTitle, type TitleContext } from './core/displayTitle';
import type { ToolCallState } from './core/toolCalls';

/**
 * The last context built, and the folders it was built from: while they stay the same, every
 * title shares one context object, whose parsed form `displayTitle` keeps (thousands of titles a
 * refresh or a loaded session).
 */
let lastContext: { readonly ctx: TitleContext; readonly folders: readonly { readonly name: string; readonly uri: vscode.Uri }[] } | undefined;

/** The display-title context of the current workspace (multi-root aware). */
export function titleContext(): TitleContext {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const home = os.homedir();
  const last = lastContext;
  if (
    last &&
    last.ctx.home === home &&
    last.folders.length === folders.length &&
    folders.every((f, i) => f.name === last.folders[i]?.name && f.uri.toString() === last.folders[i]?.uri.toString())
  ) {
    return last.ctx;
  }
  const ctx: TitleContext = {
    folders: folders.map((f) => ({ name: f.name, path: f.uri.fsPath })),
    // Sessions run in the first folder on disk (AcpNative.workspaceRoots).
    cwd: folders.find((f) => f.uri.scheme === 'file')?.uri.fsPath,
    home,
    sep: path.sep === '\\' ? '\\' : '/',
  };
  lastContext = { ctx, folders: folders.map((f) => ({ name: f.name, uri: f.uri })) };
  return ctx;
}

export function callDisplayTitle(call: ToolCallState, ctx = titleContext()): string {
  return displayTitle(call.title, cardPaths(call), ctx);
}

export function fileDisplayPath(absPath: string, ctx = titleContext()): string {
  return displayPath(absPath, ctx);
}
