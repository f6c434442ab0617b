import * as vscode from 'vscode';
import type { AcpNative } from './root';
import { errorMessage } from './base/log';
import { AgentExitedError } from './wire/agentConnection';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { SkippedServer } from './agents/mcp/model/mcpConfig';
import { summarize } from './agents/mcp/mcpServerService';
import { isAuthRequired, StillNotSignedInError } from './agents/signIn/model/authMethods';
import { REVIEW_COMMANDS } from './review/reviewCommands';
import { ACTIVITY_LABELS, switcherEntries } from './session/model/openSessions';
import { openSessionsOf } from './chat/sessionList';

type CommandHandler = (acp: AcpNative, ...args: unknown[]) => unknown;

/**
 * Every command of the extension, in one table. A test checks that each command in package.json
 * has an entry here.
 */
export const COMMANDS: Record<string, CommandHandler> = {
  'acpNative.prompt': async (acp, text?: unknown) => {
    const prompt =
      typeof text === 'string'
        ? text
        : await vscode.window.showInputBox({ title: 'ACP: Send Prompt', prompt: 'What should the agent do?', placeHolder: '/demo' });
    if (!prompt) return undefined;
    const stop = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'Agent working…' },
      // Through the chat, so what was attached (+ File, @ mentions, Send to ACP Chat) goes along.
      () => acp.chat.actions.prompt(prompt),
    );
    if (stop !== 'end_turn') void vscode.window.showInformationMessage(`The agent stopped: ${stop.replace(/_/g, ' ')}.`);
    return stop;
  },
  'acpNative.cancel': (acp) => acp.sessions.cancel(),
  'acpNative.newSession': async (acp) => (await acp.sessions.newSession()).state.sessionId,
  'acpNative.stopAgent': (acp) => acp.sessions.stopAgent(),
  'acpNative.restartAgent': async (acp) => (await acp.sessions.restart()).state.sessionId,
  'acpNative.showLog': (acp) => acp.log.show(),
  'acpNative.clearToolCalls': (acp) => acp.sessions.clear(),
  ...REVIEW_COMMANDS,
  'acpNative.focusChat': (acp) => acp.chat.view.focus(),
  'acpNative.showHistory': (acp) => acp.chat.showHistory(),
  'acpNative.chooseAgent': (acp) => acp.chat.chooseAgent(),
  'acpNative.newSessionWithAgent': async (acp, agent?: unknown) => {
    // With an agent's settings name (tests, keybindings), no picker.
    const sessionId = typeof agent === 'string' ? (await acp.sessions.newSession(agent)).state.sessionId : await acp.chat.newSessionWithAgent();
    if (sessionId) await acp.chat.view.focus();
    return sessionId;
  },
  'acpNative.switchSession': async (acp, sessionId?: unknown) => {
    const target = sessionIdArg(sessionId) ?? (await pickOpenSession(acp, 'ACP: Switch Session'));
    if (!target) return undefined;
    acp.sessions.setActive(target);
    await acp.chat.view.focus();
    return target;
  },
  'acpNative.closeSession': async (acp, sessionId?: unknown) => {
    const target = sessionIdArg(sessionId) ?? acp.chat.view.currentSession()?.state.sessionId;
    if (target) await acp.sessions.closeSession(target);
  },
  'acpNative.addAgent': (acp) => acp.registry.pick(),
  'acpNative.removeAgent': (acp) => acp.registry.pickToRemove(),
  'acpNative.setLlmApiKey': (acp) => acp.chat.apiKey.prompt(),
  'acpNative.sendToChat': (acp, uri) => acp.chat.send.editor(uri),
  'acpNative.sendResourcesToChat': (acp, clicked, selected) => acp.chat.send.explorer(clicked, selected),
  'acpNative.sendTerminalSelectionToChat': (acp) => acp.chat.send.terminal(),
  'acpNative.showTrace': (acp) => acp.trace.show(),
  'acpNative.showMcpServers': async (acp) => {
    // What the active agent got at its latest session start; with no agent, what one would get.
    const connection = acp.sessions.active?.connection;
    const sent = acp.mcpServers.report(connection);
    const report = sent ?? { agentName: undefined, ...(await previewMcpServers(acp)) };
    acp.mcpServers.show(report, sent !== undefined);
    // Names and reasons only (values may be secrets), for callers such as tests.
    return { agentName: report.agentName, servers: report.servers.map(summarize), skipped: report.skipped };
  },
  'acpNative.signIn': async (acp, methodId?: unknown) => {
    const signedIn = await acp.signIn.signIn(typeof methodId === 'string' ? methodId : undefined);
    if (signedIn) void vscode.window.showInformationMessage(`ACP: Signed in with ${signedIn.methodName}.`);
  },
  'acpNative.signOut': async (acp) => {
    const { agentName, loggedOut, forgot } = await acp.signIn.signOut();
    const what = [loggedOut ? 'the agent logged out' : undefined, forgot ? 'its stored credentials were forgotten' : undefined].filter(Boolean);
    void vscode.window.showInformationMessage(
      what.length ? `ACP: Signed out of ${agentName}: ${what.join('; ')}.` : `ACP: ${agentName} cannot log out, and ACP Native stored no credentials for it.`,
    );
  },
  'acpNative.openToolCall': async (acp, sessionId: unknown, toolCallId: unknown) => {
    const session = acp.sessions.session(String(sessionId));
    const call = session?.state.toolCall(String(toolCallId));
    if (!session || !call) {
      void vscode.window.showWarningMessage('This tool call is no longer available.');
      return;
    }
    await acp.cards.open(session, call);
  },
};

async function previewMcpServers(acp: AcpNative): Promise<{ servers: McpServer[]; skipped: SkippedServer[] }> {
  const configured = await acp.mcpServers.configured();
  return { servers: configured.resolved.map((r) => r.server), skipped: configured.skipped };
}

export function registerCommands(acp: AcpNative): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, handler]) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(acp, ...args);
      } catch (error) {
        acp.log.error(`${id} failed: ${errorMessage(error)}`);
        const needsSignIn = error instanceof StillNotSignedInError || isAuthRequired(error);
        const actions = error instanceof AgentExitedError ? ['Restart Agent', 'Show Log'] : needsSignIn ? ['Sign In', 'Show Log'] : ['Show Log'];
        void vscode.window.showErrorMessage(`ACP: ${errorMessage(error)}`, ...actions).then((pick) => {
          if (pick === 'Show Log') acp.log.show();
          if (pick === 'Restart Agent') void vscode.commands.executeCommand('acpNative.restartAgent');
          if (pick === 'Sign In') void vscode.commands.executeCommand('acpNative.signIn');
        });
        return undefined;
      }
    }),
  );
}

/** A QuickPick of the open sessions (agent, title, what it is doing); the chat's is shown first. */
async function pickOpenSession(acp: AcpNative, title: string): Promise<string | undefined> {
  const shown = acp.chat.view.currentSession()?.state.sessionId;
  const entries = switcherEntries(openSessionsOf(acp.sessions, acp.permissions, acp.elicitations), shown);
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
