import type { Disposable as VsDisposable } from 'vscode';
import type { AgentSessions, SessionRecord } from './agentSessions';

/** Per session (for tests and the benchmark): `session/update`s applied and coalesced change events emitted. */
export class SessionCounters {
  private readonly counts = new WeakMap<SessionRecord, { updatesApplied: number; changeEvents: number }>();
  private readonly subscription: VsDisposable;

  constructor(sessions: AgentSessions) {
    this.subscription = sessions.onDidChangeSession(({ session, changes }) => {
      const counts = this.counts.get(session) ?? { updatesApplied: 0, changeEvents: 0 };
      counts.updatesApplied += changes.updates;
      counts.changeEvents++;
      this.counts.set(session, counts);
    });
  }

  of(session: SessionRecord | undefined): { updatesApplied: number; changeEvents: number } {
    return (session && this.counts.get(session)) ?? { updatesApplied: 0, changeEvents: 0 };
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
