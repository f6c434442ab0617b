import * as vscode from 'vscode';
import type { AcpNative } from './root';
import { errorMessage } from './base/log';
import { AgentExitedError } from './wire/agentConnection';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { SkippedServer } from './agents/mcp/model/mcpConfig';
import { summarize } from './agents/mcp/mcpServerService';
import { isAuthRequired, StillNotSignedInError } from './agents/signIn/model/authMethods';
import { summaryText } from './review/model/actionLog';
import { fileDisplayPath } from './workspace/titles';
import type { UndoOutcome } from './review/actionLogActions';
import { realPath } from './review/snapshotFiles';
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
  'acpNative.cancel': (acp) => acp.verbs.cancel(),
  'acpNative.newSession': async (acp) => (await acp.verbs.newSession()).state.sessionId,
  'acpNative.stopAgent': (acp) => acp.agents.stop(),
  'acpNative.restartAgent': async (acp) => (await acp.verbs.restart()).state.sessionId,
  'acpNative.showLog': (acp) => acp.log.show(),
  'acpNative.clearToolCalls': (acp) => acp.sessions.clear(),
  'acpNative.reviewChanges': (acp, first) => {
    const given = reviewTarget(acp, first, undefined);
    // A turn's node or message: that turn's changes together, even from one of its files.
    if (given.turn !== undefined) return acp.actionLogActions.openTurn(given.sessionId, given.turn);
    const target = actionLogTarget(acp, given);
    if (target === undefined) return undefined;
    if ('changeId' in target) return acp.actionLogActions.openFile(target.sessionId, target.changeId);
    return acp.actionLogActions.openTurn(target.sessionId, target.turn);
  },
  'acpNative.review.openFile': (acp, first, second) => {
    const target = actionLogTarget(acp, reviewTarget(acp, first, second));
    if (target === undefined) return undefined;
    if ('changeId' in target) return acp.actionLogActions.openFile(target.sessionId, target.changeId);
    return acp.actionLogActions.openTurn(target.sessionId, target.turn);
  },
  'acpNative.review.keep': (acp, first, second) => {
    const target = actionLogTarget(acp, reviewTarget(acp, first, second));
    if (target === undefined) return undefined;
    if ('changeId' in target) return acp.actionLogActions.keepFile(target.sessionId, target.changeId);
    return acp.actionLogActions.keepTurn(target.sessionId, target.turn);
  },
  'acpNative.review.undo': async (acp, first, second) => {
    const target = actionLogTarget(acp, reviewTarget(acp, first, second));
    if (target === undefined) return undefined;
    if ('changeId' in target) return reportUndo([await acp.actionLogActions.undo(target.sessionId, target.changeId)]);
    return reportUndo(await acp.actionLogActions.undoTurn(target.sessionId, target.turn));
  },
  'acpNative.actionLog.keepHunk': (acp, sessionId, changeId, index) => acp.actionLogActions.keepHunk(String(sessionId), Number(changeId), Number(index)),
  'acpNative.actionLog.undoHunk': async (acp, sessionId, changeId, index) =>
    reportUndo([await acp.actionLogActions.undo(String(sessionId), Number(changeId), [Number(index)])]),
  'acpNative.restoreCheckpoint': async (acp, first) => {
    const target = reviewTarget(acp, first, undefined);
    const turn = target.turn ?? (await pickTurn(acp, target.sessionId));
    if (turn === undefined) return undefined;
    const files = acp.actionLogActions.restoreFiles(target.sessionId, turn);
    if (files.length === 0) {
      void vscode.window.showInformationMessage(`The agent changed no file since prompt ${turn + 1}.`);
      return undefined;
    }
    const list = files.map((f) => `• ${fileDisplayPath(f)}`).join('\n');
    const answer = await vscode.window.showWarningMessage(
      `Restore to before prompt ${turn + 1}?`,
      { modal: true, detail: `This undoes every change the agent made since, newest first, in ${files.length} ${files.length === 1 ? 'file' : 'files'}:\n${list}\n\nYour own later edits stay. "Undo Restore" takes it back.` },
      'Restore',
    );
    if (answer !== 'Restore') return undefined;
    const result = await acp.actionLogActions.restoreCheckpoint(target.sessionId, turn);
    const left = result.conflicts.length + result.refused.length;
    const pick = await vscode.window.showInformationMessage(
      `Restored ${result.files.length} ${result.files.length === 1 ? 'file' : 'files'} to before prompt ${turn + 1}${left ? `; left ${left} alone (changed since, or no undo)` : ''}.`,
      'Undo Restore',
    );
    if (pick === 'Undo Restore') await acp.actionLogActions.undoRestore();
    return result;
  },
  'acpNative.undoRestore': (acp) => acp.actionLogActions.undoRestore(),
  'acpNative.focusChat': (acp) => acp.chat.panel.focus(),
  'acpNative.showHistory': (acp) => acp.chat.showHistory(),
  'acpNative.chooseAgent': (acp) => acp.chat.chooseAgent(),
  'acpNative.newSessionWithAgent': async (acp, agent?: unknown) => {
    // With an agent's settings name (tests, keybindings), no picker.
    const sessionId = typeof agent === 'string' ? (await acp.verbs.newSession(agent)).state.sessionId : await acp.chat.newSessionWithAgent();
    if (sessionId) await acp.chat.panel.focus();
    return sessionId;
  },
  'acpNative.switchSession': async (acp, sessionId?: unknown) => {
    const target = sessionIdArg(sessionId) ?? (await pickOpenSession(acp, 'ACP: Switch Session'));
    if (!target) return undefined;
    acp.sessions.setActive(target);
    await acp.chat.panel.focus();
    return target;
  },
  'acpNative.closeSession': async (acp, sessionId?: unknown) => {
    const target = sessionIdArg(sessionId) ?? acp.chat.view.currentSession()?.state.sessionId;
    if (target) await acp.verbs.closeSession(target);
  },
  'acpNative.addAgent': (acp) => acp.registry.pick(),
  'acpNative.removeAgent': (acp) => acp.registry.pickToRemove(),
  'acpNative.setLlmApiKey': (acp) => acp.llmApiKey.prompt(),
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

interface ReviewTarget {
  sessionId: string;
  path?: string;
  /** A turn of the action log (its tree node, a lens). */
  turn?: number;
  /** One file's change in the action log. */
  changeId?: number;
}

/** Review commands take a tree node or lens argument (menus) or a session id and a path (API, clicks). */
function reviewTarget(acp: AcpNative, first: unknown, second: unknown): ReviewTarget {
  if (typeof first === 'object' && first !== null && 'sessionId' in first) {
    const node = first as ReviewTarget;
    return {
      sessionId: node.sessionId,
      ...(node.path ? { path: node.path } : {}),
      ...(typeof node.turn === 'number' ? { turn: node.turn } : {}),
      ...(typeof node.changeId === 'number' ? { changeId: node.changeId } : {}),
    };
  }
  const sessionId = typeof first === 'string' ? first : acp.sessions.active?.state.sessionId;
  if (!sessionId) throw new Error('There is no active session.');
  return { sessionId, ...(typeof second === 'string' ? { path: second } : {}) };
}

/**
 * What a review command acts on in the action log: the change or turn its node names; else the
 * latest change of the path it was given; else the session's latest turn that changed files.
 * Undefined (and the user told) when there is none.
 */
function actionLogTarget(acp: AcpNative, target: ReviewTarget): { sessionId: string; changeId: number } | { sessionId: string; turn: number } | undefined {
  const { sessionId } = target;
  if (target.changeId !== undefined) return { sessionId, changeId: target.changeId };
  if (target.turn !== undefined) return { sessionId, turn: target.turn };
  if (target.path !== undefined) {
    const change = acp.actionLog.log.latestOf(sessionId, realPath(target.path));
    if (change) return { sessionId, changeId: change.id };
    throw new Error(`The agent has not changed ${fileDisplayPath(target.path)} in this session.`);
  }
  const turn = acp.actionLog.log.turns(sessionId).at(-1);
  if (turn !== undefined) return { sessionId, turn };
  void vscode.window.showInformationMessage('The agent has not changed any file in this session yet.');
  return undefined;
}

/** Says which hunks were left alone, and why nothing was undone when nothing was. */
function reportUndo(outcomes: UndoOutcome[]): UndoOutcome[] {
  const conflicts = outcomes.reduce((n, o) => n + o.conflicts.length, 0);
  const refused = outcomes.find((o) => o.refused)?.refused;
  if (conflicts) void vscode.window.showWarningMessage(`Left ${conflicts} ${conflicts === 1 ? 'hunk' : 'hunks'} alone: changed after the agent's edit.`);
  else if (refused) void vscode.window.showWarningMessage(`Nothing undone: ${refused}.`);
  return outcomes;
}

async function pickTurn(acp: AcpNative, sessionId: string): Promise<number | undefined> {
  const turns = acp.actionLog.log.turns(sessionId).reverse();
  if (turns.length === 0) {
    void vscode.window.showInformationMessage('The agent has not changed any file in this session.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    turns.map((turn) => ({ label: `Before prompt ${turn + 1}`, description: summaryText(acp.actionLog.summary(sessionId, turn)), turn })),
    { title: 'ACP: Restore to Before a Prompt' },
  );
  return picked?.turn;
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
