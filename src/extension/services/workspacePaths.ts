import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { isInside, normalizeAbsolute } from '../core/paths';

/**
 * Resolves a path an agent sent and checks it lies inside a workspace folder, after resolving
 * symlinks (of the path, or of its nearest existing ancestor for a file not yet created), so
 * neither `../` nor a symlink can escape. Throws an invalid-params RequestError otherwise.
 */
export async function resolveInsideWorkspace(rawPath: string, what = 'path'): Promise<string> {
  const normalized = normalizeAbsolute(rawPath);
  if (!normalized.ok) throw acp.RequestError.invalidParams({ path: rawPath }, normalized.reason);
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const real = await realpathOfNearest(normalized.path);
  for (const folder of folders) {
    const root = await realpathOfNearest(folder.uri.fsPath);
    if (isInside(real, root)) return normalized.path;
  }
  throw acp.RequestError.invalidParams({ path: rawPath }, `The ${what} is outside the workspace folders: ${rawPath}`);
}

async function realpathOfNearest(p: string): Promise<string> {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}
