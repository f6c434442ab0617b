import * as vscode from 'vscode';
import type { CommandTable } from '../base/commandTable';
import type { AgentSessions } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import { ACTIVITY_LABELS, switcherEntries } from '../session/model/openSessions';
import type { PermissionService } from '../permissions/permissionService';
import type { ElicitationService } from '../forms/elicitationService';
import type { Chat } from './chat';
import { openSessionsOf } from './sessionList';

interface ChatCommandDeps {
  chat: Chat;
  sessions: AgentSessions;
  verbs: SessionVerbs;
  permissions: PermissionService;
  elicitations: ElicitationService;
}

/** The commands of the Chat view: prompt, focus, history, agents for new sessions, the session switcher, Send to ACP Chat. */
export function chatCommands(deps: ChatCommandDeps): CommandTable {
  const { chat, sessions, verbs } = deps;
  return {
    'acpNative.prompt': async (text?: unknown) => {
      const prompt =
        typeof text === 'string'
          ? text
          : await vscode.window.showInputBox({ title: 'ACP: Send Prompt', prompt: 'What should the agent do?', placeHolder: '/demo' });
      if (!prompt) return undefined;
      const stop = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: 'Agent working…' },
        // Through the chat, so what was attached (+ File, @ mentions, Send to ACP Chat) goes along.
        () => chat.actions.prompt(prompt),
      );
      if (stop !== 'end_turn') void vscode.window.showInformationMessage(`The agent stopped: ${stop.replace(/_/g, ' ')}.`);
      return stop;
    },
    'acpNative.focusChat': () => chat.panel.focus(),
    'acpNative.showHistory': (query: unknown) => chat.showHistory(typeof query === 'string' ? query : undefined),
    'acpNative.chooseAgent': () => chat.chooseAgent(),
    'acpNative.newSessionWithAgent': async (agent?: unknown) => {
      // With an agent's settings name (tests, keybindings), no picker.
      const sessionId = typeof agent === 'string' ? (await verbs.newSession(agent)).state.sessionId : await chat.newSessionWithAgent();
      if (sessionId) await chat.panel.focus();
      return sessionId;
    },
    'acpNative.switchSession': async (sessionId?: unknown) => {
      const target = sessionIdArg(sessionId) ?? (await pickOpenSession(deps, 'ACP: Switch Session'));
      if (!target) return undefined;
      sessions.setActive(target);
      await chat.panel.focus();
      return target;
    },
    'acpNative.closeSession': async (sessionId?: unknown) => {
      const target = sessionIdArg(sessionId) ?? chat.view.currentSession()?.state.sessionId;
      if (target) await verbs.closeSession(target);
    },
    'acpNative.sendToChat': (uri) => chat.send.editor(uri),
    'acpNative.sendResourcesToChat': (clicked, selected) => chat.send.explorer(clicked, selected),
    'acpNative.sendTerminalSelectionToChat': () => chat.send.terminal(),
  };
}

/** A QuickPick of the open sessions (agent, title, what it is doing); the chat's is shown first. */
async function pickOpenSession(deps: ChatCommandDeps, title: string): Promise<string | undefined> {
  const shown = deps.chat.view.currentSession()?.state.sessionId;
  const entries = switcherEntries(openSessionsOf(deps.sessions, deps.permissions, deps.elicitations), shown);
  if (entries.length === 0) {
    void vscode.window.showInformationMessage('ACP: no session is open.');
    return undefined;
  }
  const items = entries.map((e) => ({
    label: `${e.shown ? '$(eye) ' : ''}${e.title}`,
    description: `${e.agentName} · ${ACTIVITY_LABELS[e.activity]}`,
    sessionId: e.sessionId,
  }));
  const pick = await vscode.window.showQuickPick(items, { title, placeHolder: 'An open session', matchOnDescription: true });
  return pick?.sessionId;
}

/** A session id given to a command: the id itself, or a Tool Calls tree node of a session. */
function sessionIdArg(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const node = value as { type?: unknown; sessionId?: unknown } | null | undefined;
  return node?.type === 'session' && typeof node.sessionId === 'string' ? node.sessionId : undefined;
}
