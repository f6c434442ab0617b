import type { AgentSessions } from '../../connection/agentSessions';
import type { OpenSession } from '../../core/openSessions';
import type { PermissionService } from '../../services/permissions';
import type { ElicitationService } from '../../services/elicitations';

/** The open sessions with what each waits for, as the switcher and the status bar read them. */
export function openSessionsOf(
  sessions: AgentSessions,
  permissions: Pick<PermissionService, 'requests'>,
  elicitations?: Pick<ElicitationService, 'pending'>,
): OpenSession[] {
  return sessions.all.map((record) => {
    const id = record.state.sessionId;
    return {
      sessionId: id,
      agentName: record.agentName,
      title: record.state.title,
      transcript: record.state.transcript,
      busy: record.busy,
      questions: permissions.requests.pending(id).length + (elicitations?.pending(id).length ?? 0),
      running: record.connection.process.isAlive,
    };
  });
}
