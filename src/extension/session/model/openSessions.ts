import type { ChatActivity, ChatSessionEntry } from '../../../protocol/chat';
import type { TranscriptEntry } from './transcript';

/** One open session as the switcher and the status bar see it. */
export interface OpenSession {
  readonly sessionId: string;
  readonly agentName: string;
  /** The agent's title (`session_info_update`), if it sent one. */
  readonly title: string | undefined;
  readonly transcript: readonly TranscriptEntry[];
  readonly busy: boolean;
  /** Questions (permissions, forms) of this session waiting for an answer. */
  readonly questions: number;
  /** Its agent runs. A stopped agent's sessions stay readable but leave the switcher. */
  readonly running: boolean;
}

/** A session's label when the agent gave it no title: its first prompt, cut short. */
const UNTITLED_CHARS = 40;

/** The session's title: the agent's, else the first prompt, else "New session". */
export function sessionTitle(session: Pick<OpenSession, 'title' | 'transcript'>): string {
  if (session.title?.trim()) return session.title.trim();
  const first = session.transcript.find((e) => e.type === 'message' && e.role === 'user');
  const text = first?.type === 'message' ? first.text.replace(/\s+/g, ' ').trim() : '';
  if (!text) return 'New session';
  return text.length > UNTITLED_CHARS ? `${text.slice(0, UNTITLED_CHARS - 1)}…` : text;
}

/** Waiting for the user beats working: that is what needs the user. */
export function sessionActivity(session: Pick<OpenSession, 'busy' | 'questions'>): Exclude<ChatActivity, 'none'> {
  if (session.questions > 0) return 'waiting';
  return session.busy ? 'working' : 'idle';
}

/**
 * The chat header's session switcher, in the order the sessions were opened: the sessions whose
 * agent runs, and the one shown even if its agent stopped.
 */
export function switcherEntries(sessions: readonly OpenSession[], shownId: string | undefined): ChatSessionEntry[] {
  return sessions.filter((s) => s.running || s.sessionId === shownId).map((s) => ({
    sessionId: s.sessionId,
    agentName: s.agentName,
    title: sessionTitle(s),
    activity: sessionActivity(s),
    shown: s.sessionId === shownId,
  }));
}

export const ACTIVITY_LABELS: Readonly<Record<Exclude<ChatActivity, 'none'>, string>> = {
  idle: 'idle',
  working: 'working',
  waiting: 'needs your answer',
};

/** The status bar across several sessions: how many work, how many wait, one line per session. */
export interface BusySummary {
  /** Sessions whose agent runs. */
  readonly open: number;
  readonly busy: number;
  readonly waiting: number;
  /** "2 busy", "1 busy, 1 waiting", "3 open". */
  readonly text: string;
  /** One line per open session: "Claude · Fix the tests: working". */
  readonly lines: readonly string[];
}

/** Counts the sessions whose agent runs (a stopped agent's sessions are history, not work). */
export function busySummary(sessions: readonly OpenSession[]): BusySummary {
  let busy = 0;
  let waiting = 0;
  const lines: string[] = [];
  const open = sessions.filter((s) => s.running);
  for (const session of open) {
    const activity = sessionActivity(session);
    // A session waiting for an answer is in a turn too: it counts as busy and as waiting.
    if (session.busy || activity === 'waiting') busy++;
    if (activity === 'waiting') waiting++;
    lines.push(`${session.agentName} · ${sessionTitle(session)}: ${ACTIVITY_LABELS[activity]}`);
  }
  const parts = [busy ? `${busy} busy` : undefined, waiting ? `${waiting} waiting` : undefined].filter(Boolean);
  return { open: open.length, busy, waiting, text: parts.length ? parts.join(', ') : `${open.length} open`, lines };
}
