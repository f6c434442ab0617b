import type { AgentSessions } from '../session/agentSessions';
import type { OpenSession } from '../session/model/openSessions';
import type { PermissionService } from '../permissions/permissionService';
import type { ElicitationService } from '../forms/elicitationService';

/** The open sessions with what each waits for, as the switcher and the status bar read them. */
export function openSessionsOf(
  sessions: AgentSessions,
  permissions: Pick<PermissionService, 'requests'>,
  elicitations?: Pick<ElicitationService, 'pending'>,
  /** Subagents' sessions too (the API lists them; the switcher does not). */
  withSubagents = false,
): OpenSession[] {
  return (withSubagents ? sessions.all : sessions.topLevel).map((record) => {
    const id = record.state.sessionId;
    // A session's subagents are part of it: their questions are its questions, their work its work.
    const subtree = sessions.subtreeOf(id);
    let questions = 0;
    for (const s of subtree) questions += permissions.requests.pending(s.state.sessionId).length + (elicitations?.pending(s.state.sessionId).length ?? 0);
    return {
      sessionId: id,
      agentName: record.agentName,
      title: record.state.title,
      transcript: record.state.transcript,
      busy: subtree.some((s) => s.busy),
      questions,
      running: record.connection.process.isAlive,
    };
  });
}
