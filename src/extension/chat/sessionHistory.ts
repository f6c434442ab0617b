import * as vscode from 'vscode';
import type { AgentSessions } from '../session/agentSessions';
import { Disposable } from '../base/lifecycle';
import { historyTitle } from './model/historySearch';

export interface RecordedSession {
  sessionId: string;
  agentName: string;
  title: string;
  /** ISO time of the last change seen. */
  updatedAt: string;
}

const KEY = 'acpNative.chat.sessions';
/**
 * Session id → the agent (its settings name) that held it, for every session seen, titled or
 * not: a session opened again goes to that agent, not to whichever is active.
 */
const AGENTS_KEY = 'acpNative.chat.sessionAgents';
const MAX_AGENTS = 200;
/** Session id → what Session History says after its title ("(before edit)"). */
const NOTES_KEY = 'acpNative.chat.sessionNotes';
const MAX_NOTES = 200;
/** Newest first; older ones fall off. */
const MAX_RECORDED = 100;
const MAX_TITLE_CHARS = 80;

/**
 * The sessions this extension saw, kept in the workspace's state: the history list for agents
 * that cannot list their sessions (`session/list`), the titles for those that can, and which
 * agent each one was with.
 */
export class SessionHistory extends Disposable {
  constructor(
    private readonly memento: vscode.Memento,
    sessions: AgentSessions,
  ) {
    super();
    const record = () => {
      this.rememberAgents(sessions.topLevel.map((s) => [s.state.sessionId, s.agentKey]));
      for (const session of sessions.topLevel) {
        const firstPrompt = session.state.transcript.find((e) => e.type === 'message' && e.role === 'user');
        const title = session.state.title ?? (firstPrompt?.type === 'message' ? firstPrompt.text : '');
        if (title) this.remember({ sessionId: session.state.sessionId, agentName: session.agentName, title: oneLine(title), updatedAt: new Date().toISOString() });
      }
    };
    this._register(sessions.onDidChangeSessions(record));
  }

  all(): RecordedSession[] {
    const stored = this.memento.get<unknown>(KEY, []);
    return Array.isArray(stored) ? stored.filter(isRecordedSession) : [];
  }

  /** The agent a session was with here (its settings name), if it was seen. */
  agentOf(sessionId: string): string | undefined {
    return this.agents()[sessionId];
  }

  /** Drops a session from the records (Delete). */
  async forget(sessionId: string): Promise<void> {
    await this.memento.update(KEY, this.all().filter((s) => s.sessionId !== sessionId));
    const { [sessionId]: _agent, ...agents } = this.agents();
    await this.memento.update(AGENTS_KEY, agents);
    const { [sessionId]: _gone, ...notes } = this.notes();
    await this.memento.update(NOTES_KEY, notes);
  }

  /** Labels a session in the history (an edited branch: "(before edit)", "(edit of prompt 2)"). */
  async note(sessionId: string, note: string): Promise<void> {
    const notes = Object.entries({ ...this.notes(), [sessionId]: note }).slice(-MAX_NOTES);
    await this.memento.update(NOTES_KEY, Object.fromEntries(notes));
  }

  /** A session's title as the history shows it: with its note, if it has one. */
  titled(sessionId: string, title: string | undefined): string | undefined {
    const note = this.notes()[sessionId];
    if (!note) return title;
    return `${historyTitle(title, this.all().find((s) => s.sessionId === sessionId)?.title)} ${note}`;
  }

  private notes(): Record<string, string> {
    const stored = this.memento.get<unknown>(NOTES_KEY, {});
    if (typeof stored !== 'object' || stored === null) return {};
    return Object.fromEntries(Object.entries(stored).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  private agents(): Record<string, string> {
    const stored = this.memento.get<unknown>(AGENTS_KEY, {});
    if (typeof stored !== 'object' || stored === null) return {};
    return Object.fromEntries(Object.entries(stored).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  /** Newest last, so the oldest fall off; written only when something changed. */
  private rememberAgents(seen: readonly (readonly [string, string])[]): void {
    const agents = this.agents();
    const changed = seen.filter(([sessionId, agentKey]) => agents[sessionId] !== agentKey);
    if (changed.length === 0) return;
    for (const [sessionId] of changed) delete agents[sessionId];
    const entries = [...Object.entries(agents), ...changed].slice(-MAX_AGENTS);
    void this.memento.update(AGENTS_KEY, Object.fromEntries(entries));
  }

  private remember(entry: RecordedSession): void {
    const others = this.all().filter((s) => s.sessionId !== entry.sessionId);
    const previous = this.all().find((s) => s.sessionId === entry.sessionId);
    if (previous && previous.title === entry.title && previous.agentName === entry.agentName) return;
    void this.memento.update(KEY, [entry, ...others].slice(0, MAX_RECORDED));
  }
}

function oneLine(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > MAX_TITLE_CHARS ? `${line.slice(0, MAX_TITLE_CHARS - 1)}…` : line;
}

function isRecordedSession(value: unknown): value is RecordedSession {
  const v = value as Partial<RecordedSession> | null;
  return typeof v?.sessionId === 'string' && typeof v.agentName === 'string' && typeof v.title === 'string' && typeof v.updatedAt === 'string';
}
