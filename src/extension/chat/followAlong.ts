import * as vscode from 'vscode';
import type { AgentSessions, SessionRecord } from '../session/agentSessions';
import type { Config } from '../config';
import { Disposable } from '../base/lifecycle';
import type { Probes } from '../base/probes';

/**
 * `acpNative.followAlong`: as the agent reads and edits, the file and line it works on are shown
 * (without taking the focus). One reveal per flush, for the newest call that names a location,
 * and each location once, so a storm of updates does not make the editor jump around. Turning the
 * setting on shows where the agent is at once.
 */
export class FollowAlong extends Disposable {
  /** Locations already shown, per session (forgotten with the session). */
  private readonly revealed = new Map<string, Set<string>>();

  constructor(
    deps: { sessions: AgentSessions; config: Config; probes?: Probes | undefined },
  ) {
    super();
    const { sessions, config } = deps;
    // Sessions with remembered locations (what a record's scope lets go of).
    if (deps.probes) this._register(deps.probes.gauge('kept.followAlongSessions', () => this.revealed.size));
    this._register(
      sessions.onDidChangeSession(({ session, changes }) => {
        if (session !== sessions.active || changes.toolCalls.size === 0 || !config.followAlong) return;
        this.follow(session, [...changes.toolCalls]);
      }),
    );
    this._register(
      config.onDidChange(['followAlong'], () => {
        const active = sessions.active;
        if (config.followAlong && active) this.follow(active, active.state.toolCalls().map((call) => call.id));
      }),
    );
  }

  /** Shows the newest of `ids` (in arrival order) that names a location not shown yet. */
  private follow(session: SessionRecord, ids: readonly string[]): void {
    const sessionId = session.state.sessionId;
    let revealed = this.revealed.get(sessionId);
    if (!revealed) {
      this.revealed.set(sessionId, (revealed = new Set<string>()));
      session.scope.once(this, () => this.revealed.delete(sessionId));
    }
    for (const id of [...ids].reverse()) {
      const call = session.state.toolCall(id);
      const location = call?.locations[0];
      if (!call || !location || call.status === 'failed') continue;
      const key = `${id}:${location.path}:${location.line ?? ''}`;
      if (revealed.has(key)) return;
      revealed.add(key);
      void this.reveal(location.path, location.line ?? undefined);
      return;
    }
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
