import * as vscode from 'vscode';
import * as acp from '@agentclientprotocol/sdk';
import { isInside, normalizeAbsolute } from './model/paths';
import type { Config } from '../config';
import { fileDisplayPath } from './titles';
import type { PermissionService } from '../permissions/permissionService';
import { realpathOfNearest, resolvePath } from './workspaceText';
import { workspaceRoots } from './workspaceRoots';

export type PathUse = 'read' | 'write' | 'run commands in';

/**
 * Where the agent may read, write and run: inside the workspace folders, after normalizing the
 * path and resolving symlinks (of the path, or of its nearest existing ancestor for a file not
 * yet created), so neither `../` nor a symlink can escape. Outside, the setting decides: ask the
 * user, or refuse with a clear error.
 *
 * The path it returns is the resolved one, in one spelling per file: everything keyed by path
 * (open documents, the write queue, review records, questions) sees one file as one file.
 */
export class WorkspaceGuard {
  constructor(private readonly deps: { config: Config; permissions: PermissionService }) {}

  /** Where a command of `terminal/create` runs: its cwd, checked, else the first workspace folder. */
  commandCwd(cwd: string | null | undefined, sessionId: string, signal?: AbortSignal): Promise<string> {
    return cwd ? this.check(cwd, 'run commands in', sessionId, signal) : Promise.resolve(workspaceRoots().cwd);
  }

  async check(rawPath: string, use: PathUse, sessionId: string, signal?: AbortSignal): Promise<string> {
    const normalized = normalizeAbsolute(rawPath);
    if (!normalized.ok) throw acp.RequestError.invalidParams({ path: rawPath }, normalized.reason);
    const resolved = await resolvePath(normalized.path);
    if (!resolved.ok) {
      throw acp.RequestError.invalidParams(
        { path: rawPath },
        `${fileDisplayPath(resolved.danglingLink)} is a symbolic link to ${fileDisplayPath(resolved.target)}, which does not exist; the agent may not ${use} through it.`,
      );
    }
    if (await isInWorkspace(resolved.path)) return resolved.path;
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
      signal,
    });
    if (signal?.aborted) throw acp.RequestError.requestCancelled({ path: rawPath });
    if (!allowed) throw refusal();
    return resolved.path;
  }
}

async function isInWorkspace(real: string): Promise<boolean> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  for (const folder of folders) {
    const folderReal = await realpathOfNearest(folder.uri.fsPath);
    if (isInside(real, folder.uri.fsPath) || (folderReal.ok && isInside(real, folderReal.path))) return true;
  }
  return false;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
