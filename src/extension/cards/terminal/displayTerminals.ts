import type { AgentSessions, SessionRecord } from '../../session/agentSessions';
import { Disposable } from '../../base/lifecycle';
import type { Probes } from '../../base/probes';
import { callDisplayTitle } from '../../workspace/titles';
import type { TerminalViews } from './terminalViews';

/**
 * Renders display terminals (the `_meta` convention): a panel appears the first time an id is
 * seen, whichever message brought it, output is appended as it arrives, and the exit status is
 * written when the command ends. Reads the session state; never parses ACP itself.
 */
export class DisplayTerminals extends Disposable {
  /** How much of each terminal's output has been written to its panel, per session. */
  private readonly written = new Map<string, Map<string, number>>();

  constructor(
    private readonly deps: { sessions: AgentSessions; views: TerminalViews; probes?: Probes },
  ) {
    super();
    // Sessions this renderer keeps bookkeeping for (what a record's scope lets go of).
    if (deps.probes) this._register(deps.probes.gauge('kept.terminalSessions', () => this.written.size));
    this._register(
      deps.sessions.onDidChangeSession(({ session, changes }) => {
        for (const id of changes.terminals) this.sync(session, id);
        for (const id of changes.toolCalls) this.retitle(session, id);
      }),
    );
  }

  /**
   * A card that shows a terminal (display or client) was updated: its panel takes the new title
   * when it follows its card (named after it, or a stand-in such as "Terminal").
   */
  private retitle(session: SessionRecord, toolCallId: string): void {
    const call = session.state.toolCall(toolCallId);
    if (call?.terminalId === undefined) return;
    this.deps.views.cardRetitled(call.terminalId, callDisplayTitle(call));
  }

  private sync(session: SessionRecord, terminalId: string): void {
    const terminal = session.state.terminal(terminalId);
    if (!terminal) return;
    const sessionId = session.state.sessionId;
    let written = this.written.get(sessionId);
    if (!written) {
      this.written.set(sessionId, (written = new Map<string, number>()));
      // The panels stay for the user to read; only the bookkeeping goes with the session's record.
      session.scope.once(this, () => this.written.delete(sessionId));
    }
    let view = this.deps.views.get(terminalId);
    if (!view) {
      const call = terminal.toolCallId ? session.state.toolCall(terminal.toolCallId) : undefined;
      view = this.deps.views.create({
        terminalId,
        name: call ? callDisplayTitle(call) : 'Agent command',
        header: terminal.cwd ? `cwd: ${terminal.cwd}` : undefined,
      });
      written.set(terminalId, 0);
    } else if (!written.has(terminalId)) {
      // A panel kept from a session record since replaced (a restarted agent reloading it): it
      // already shows this output, and the replay must not write it twice.
      written.set(terminalId, terminal.output.length);
    }
    const offset = written.get(terminalId) ?? 0;
    // A flood brings more between two syncs than the panel keeps of a burst: read (and convert)
    // only the newest part it will show, and let it say how much was left out. The parts as the
    // output keeps them, not joined: the panel holds and gives them on as they are (a joined
    // 128 Ki per sync was a large object, garbage the next moment, that only a full collection frees).
    const { pieces, start, end } = terminal.output.piecesFrom(Math.max(offset, terminal.output.length - view.pty.backlogChars));
    view.pty.skip(start - offset);
    view.pty.writePieces(pieces);
    written.set(terminalId, end);
    if (terminal.exit && !view.pty.ended) view.pty.end({ exitCode: terminal.exit.exitCode, signal: terminal.exit.signal });
  }
}
