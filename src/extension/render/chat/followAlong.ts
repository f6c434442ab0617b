import * as vscode from 'vscode';
import type { AgentSessions } from '../../connection/agentSessions';
import { Disposable } from '../../util/lifecycle';

export const FOLLOW_ALONG_SETTING = 'acpNative.followAlong';

/**
 * `acpNative.followAlong`: as the agent reads and edits, the file and line it works on are shown
 * (without taking the focus). One reveal per flush, for the newest call that names a location,
 * and each location once, so a storm of updates does not make the editor jump around.
 */
export class FollowAlong extends Disposable {
  private readonly revealed = new Set<string>();

  constructor(sessions: AgentSessions) {
    super();
    this._register(
      sessions.onDidChangeSession(({ session, changes }) => {
        if (session !== sessions.active || changes.toolCalls.size === 0) return;
        if (!vscode.workspace.getConfiguration().get<boolean>(FOLLOW_ALONG_SETTING, false)) return;
        const ids = [...changes.toolCalls].reverse();
        for (const id of ids) {
          const call = session.state.toolCall(id);
          const location = call?.locations[0];
          if (!call || !location || call.status === 'failed') continue;
          const key = `${session.state.sessionId}:${id}:${location.path}:${location.line ?? ''}`;
          if (this.revealed.has(key)) return;
          this.revealed.add(key);
          void this.reveal(location.path, location.line ?? undefined);
          return;
        }
      }),
    );
  }

  private async reveal(path: string, line: number | undefined): Promise<void> {
    const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
    try {
      await vscode.window.showTextDocument(vscode.Uri.file(path), {
        preview: true,
        preserveFocus: true,
        selection: new vscode.Range(position, position),
      });
    } catch {
      // A location that does not exist (yet): nothing to show.
    }
  }
}
