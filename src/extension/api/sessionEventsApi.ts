import type { AcpNativeApi } from './api';
import type { AgentSessions, SessionRecord } from '../session/agentSessions';

/** The API's reading of a session's plans, context window, compactions and notices. */
export function sessionEventsApi(sessions: AgentSessions): Pick<AcpNativeApi, 'plans' | 'contextUsage' | 'compactions' | 'notices'> {
  const sessionOf = (sessionId?: string): SessionRecord | undefined => (sessionId === undefined ? (sessions.active ?? sessions.all.at(-1)) : sessions.session(sessionId));
  return {
    plans: (sessionId) =>
      (sessionOf(sessionId)?.state.sessionEvents.plans ?? []).map((p) => ({
        planId: p.planId,
        type: p.type,
        ...(p.content !== undefined ? { content: p.content } : {}),
        ...(p.path !== undefined ? { path: p.path } : {}),
        ...(p.entries ? { entries: p.entries.map((e) => ({ content: e.content, status: e.status, priority: e.priority })) } : {}),
      })),
    contextUsage: (sessionId) => {
      const usage = sessionOf(sessionId)?.state.usage;
      return usage && { used: usage.used, size: usage.size, ...(usage.cost ? { cost: { amount: usage.cost.amount, currency: usage.cost.currency } } : {}) };
    },
    compactions: (sessionId) =>
      (sessionOf(sessionId)?.state.sessionEvents.compactions ?? []).map((c) => ({
        id: c.id,
        status: c.status,
        ...(c.summary ? { summary: c.summary } : {}),
        ...(c.error ? { error: c.error } : {}),
        ...(c.unfinished && c.status === 'in_progress' ? { unfinished: true as const } : {}),
      })),
    notices: (sessionId) =>
      (sessionOf(sessionId)?.state.notices ?? []).map((n) => ({ severity: n.severity, title: n.title, ...(n.description !== undefined ? { description: n.description } : {}) })),
  };
}
