import type { AgentSessions } from '../session/agentSessions';
import type { OpenSession } from '../session/model/openSessions';
import type { PermissionService } from '../permissions/permissionService';
import type { ElicitationService } from '../forms/elicitationService';

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
