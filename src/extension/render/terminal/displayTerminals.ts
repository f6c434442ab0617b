import type { AgentSessions, SessionRecord } from '../../connection/agentSessions';
import { Disposable } from '../../util/lifecycle';
import { callDisplayTitle } from '../../titles';
import type { TerminalViews } from './terminalViews';

/**
 * Renders display terminals (the `_meta` convention): a panel appears the first time an id is
 * seen, whichever message brought it, output is appended as it arrives, and the exit status is
 * written when the command ends. Reads the session state; never parses ACP itself.
 */
export class DisplayTerminals extends Disposable {
  /** How much of each terminal's output has been written to its panel. */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly deps: { sessions: AgentSessions; views: TerminalViews },
  ) {
    super();
    this._register(
      deps.sessions.onDidChangeSession(({ session, changes }) => {
        for (const id of changes.terminals) this.sync(session, id);
      }),
    );
  }

  private sync(session: SessionRecord, terminalId: string): void {
    const terminal = session.state.terminal(terminalId);
    if (!terminal) return;
    let view = this.deps.views.get(terminalId);
    if (!view) {
      const call = terminal.toolCallId ? session.state.toolCall(terminal.toolCallId) : undefined;
      view = this.deps.views.create({
        terminalId,
        name: call ? callDisplayTitle(call) : 'Agent command',
        header: terminal.cwd ? `cwd: ${terminal.cwd}` : undefined,
      });
      this.written.set(terminalId, 0);
    }
    const offset = this.written.get(terminalId) ?? 0;
    const chunk = terminal.readFrom(offset);
    if (chunk.text) view.pty.write(chunk.text);
    this.written.set(terminalId, chunk.end);
    if (terminal.exit && !view.pty.ended) view.pty.end({ exitCode: terminal.exit.exitCode, signal: terminal.exit.signal });
  }
}
