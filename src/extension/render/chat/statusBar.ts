import * as vscode from 'vscode';
import type { AgentSessions } from '../../connection/agentSessions';
import { activityOf } from '../../core/chatViewModel';
import type { PermissionRequests } from '../../core/permissionRequests';
import { Disposable } from '../../util/lifecycle';

/** The agent and what it is doing (idle, working, waiting for permission); a click focuses the chat. */
export class ChatStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('acpNative.status', vscode.StatusBarAlignment.Left, 50));

  constructor(
    private readonly sessions: AgentSessions,
    private readonly requests: PermissionRequests,
  ) {
    super();
    this.item.name = 'ACP Agent';
    this.item.command = 'acpNative.focusChat';
    this._register(sessions.onDidChangeSessions(() => this.update()));
    this._register(requests.onDidChange(() => this.update()));
    this.update();
    this.item.show();
  }

  private update(): void {
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
