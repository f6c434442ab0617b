import * as vscode from 'vscode';
import type { AgentSessions } from '../session/agentSessions';
import { activityOf } from './model/chatStatus';
import type { PermissionRequests } from '../permissions/model/permissionRequests';
import { busySummary } from '../session/model/openSessions';
import type { ElicitationService } from '../forms/elicitationService';
import { Disposable } from '../base/lifecycle';
import { openSessionsOf } from './sessionList';

/**
 * The agent and what it is doing (idle, working, waiting for permission); with several sessions
 * open, how many are busy and waiting ("Claude: idle · 2 busy"), one line per session in the
 * tooltip. A click focuses the chat.
 */
export class ChatStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('acpNative.status', vscode.StatusBarAlignment.Left, 50));

  constructor(
    private readonly sessions: AgentSessions,
    private readonly requests: PermissionRequests,
    private readonly elicitations?: ElicitationService,
  ) {
    super();
    if (elicitations) this._register(elicitations.onDidChange(() => this.update()));
    this.item.name = 'ACP Agent';
    this.item.command = 'acpNative.focusChat';
    this._register(sessions.onDidChangeSessions(() => this.update()));
    // Another session's new title changes its line in the tooltip (the text names only counts).
    this._register(sessions.onDidChangeSession(({ changes }) => changes.info && this.sessions.topLevel.length > 1 && this.update()));
    this._register(requests.onDidChange(() => this.update()));
    this.update();
    this.item.show();
  }

  private update(): void {
    this.showActive();
    // Several agents at once: how many sessions work or wait, each listed in the tooltip.
    const summary = busySummary(openSessionsOf(this.sessions, { requests: this.requests }, this.elicitations));
    if (summary.open < 2) return;
    if (summary.busy && !this.item.text.startsWith('$(loading~spin)')) this.item.text = this.item.text.replace(/^\$\([^)]*\)/, '$(loading~spin)');
    this.item.text += ` · ${summary.text}`;
    this.item.tooltip = `${summary.open} sessions open:\n${summary.lines.join('\n')}\nClick to open the chat.`;
    if (summary.waiting) this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  }

  /** The session the chat shows: its agent and what it is doing. */
  private showActive(): void {
    const session = this.sessions.active;
    const activity = activityOf({
      hasSession: !!session,
      busy: session?.busy ?? false,
      waiting: !!session && this.requests.pending(session.state.sessionId).length > 0,
    });
    const agent = session?.agentName ?? 'ACP';
    switch (activity) {
      case 'none':
        this.item.text = '$(comment-discussion) ACP';
        this.item.tooltip = 'No agent session. Click to open the chat.';
        this.item.backgroundColor = undefined;
        return;
      case 'idle':
        this.item.text = `$(comment-discussion) ${agent}: idle`;
        this.item.tooltip = `${agent} is waiting for your prompt. Click to open the chat.`;
        this.item.backgroundColor = undefined;
        return;
      case 'working':
        this.item.text = `$(loading~spin) ${agent}: working`;
        this.item.tooltip = `${agent} is working. Click to open the chat.`;
        this.item.backgroundColor = undefined;
        return;
      case 'waiting':
        this.item.text = `$(question) ${agent}: waiting for permission`;
        this.item.tooltip = `${agent} asks for permission. Click to answer in the chat.`;
        this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
        return;
    }
  }
}
