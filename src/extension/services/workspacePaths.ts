import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { isInside, normalizeAbsolute } from '../core/paths';
import type { Config } from '../config';
import { fileDisplayPath } from '../render/titles';
import type { PermissionService } from './permissions';

export type PathUse = 'read' | 'write' | 'run commands in';

/**
 * Where the agent may read, write and run: inside the workspace folders, after normalizing the
 * path and resolving symlinks (of the path, or of its nearest existing ancestor for a file not
 * yet created), so neither `../` nor a symlink can escape. Outside, the setting decides: ask the
 * user, or refuse with a clear error.
 */
export class WorkspaceGuard {
  constructor(private readonly deps: { config: Config; permissions: PermissionService }) {}

  async check(rawPath: string, use: PathUse, sessionId: string): Promise<string> {
    const normalized = normalizeAbsolute(rawPath);
    if (!normalized.ok) throw acp.RequestError.invalidParams({ path: rawPath }, normalized.reason);
    if (await isInWorkspace(normalized.path)) return normalized.path;
    const display = fileDisplayPath(normalized.path);
    const refusal = () =>
      acp.RequestError.invalidParams({ path: rawPath }, `${display} is outside the workspace folders; the agent may not ${use} it.`);
    if (this.deps.config.outsideWorkspace === 'refuse') throw refusal();
    const allowed = await this.deps.permissions.confirm({
      sessionId,
      title: `${capitalize(use)} ${display} (outside the workspace)`,
      message: `The agent wants to ${use} ${display}, which is outside the workspace folders.`,
      allow: 'Allow Once',
      reject: 'Refuse',
    });
    if (!allowed) throw refusal();
    return normalized.path;
  }
}

async function isInWorkspace(p: string): Promise<boolean> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  const real = await realpathOfNearest(p);
  for (const folder of folders) {
    if (isInside(real, await realpathOfNearest(folder.uri.fsPath))) return true;
  }
  return false;
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

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
