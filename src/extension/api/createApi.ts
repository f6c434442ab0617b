import * as vscode from 'vscode';
import type { AcpNativeApi, AcpNativeStats, LoggedChange, RenderedToolCall, RenderedTreeItem } from './api';
import { placeHunks } from '../review/model/actionHunks';
import { snapshotText, type FileChange, type FileChangeView } from '../review/model/actionLog';
import { currentFile } from '../review/snapshotFiles';
import type { AcpNative } from '../root';
import { callNode, sessionNode, type TreeNode } from '../cards/tree/model/treeModel';
import { cardOf } from '../session/model/toolCalls';
import type { ToolCallState } from '../session/model/toolCalls';
import type { SessionRecord } from '../session/agentSessions';
import { callDisplayTitle } from '../workspace/titles';
import { PermissionService } from '../permissions/permissionService';
import { sessionActivity, sessionTitle } from '../session/model/openSessions';
import { openSessionsOf } from '../chat/sessionList';
import { sessionEventsApi } from './sessionEventsApi';
import { undoSubagentChanges } from '../review/reviewCommands';
import { activityLabel, subagentName } from '../session/model/subagents';
import { sessionMarkdown } from '../session/exportSession';

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** Builds the API `activate()` returns, reading what the renderers actually produced. */
export function createApi(acp: AcpNative, subscriptions: vscode.Disposable[], activation: AcpNativeStats['activation']): AcpNativeApi {
  const { probes } = acp;
  const changed = new vscode.EventEmitter<void>();
  const permissionsChanged = new vscode.EventEmitter<void>();
  subscriptions.push(
    changed,
    permissionsChanged,
    acp.sessions.onDidChangeSession(({ session }) => {
      if (session === acp.sessions.active) changed.fire();
    }),
    acp.sessions.onDidChangeSessions(() => changed.fire()),
    acp.permissions.requests.onDidChange(() => permissionsChanged.fire()),
  );
  return {
    prompt: (text, sessionId) => acp.queues.prompt([{ type: 'text', text }], sessionId),
    steer: (text, sessionId) => acp.queues.steer([{ type: 'text', text }], sessionId),
    queue: (sessionId) => acp.queues.list(sessionId ?? shownSessionId(acp)).map((q) => ({ id: q.id, text: q.text, ...(q.note ? { note: q.note } : {}) })),
    removeQueued: (id) => {
      const sessionId = acp.queues.sessionOfItem(id);
      if (sessionId) acp.queues.remove(sessionId, id);
    },
    sendQueuedNow: async (id) => {
      const sessionId = acp.queues.sessionOfItem(id);
      if (!sessionId) throw new Error('That prompt is no longer in the queue (it was sent or removed).');
      return acp.queues.sendNow(sessionId, id);
    },
    editQueued: (id, text) => {
      const sessionId = acp.queues.sessionOfItem(id);
      if (!sessionId) throw new Error('That prompt is no longer in the queue (it was sent or removed).');
      acp.queues.edit(sessionId, id, text);
    },
    resumeQueue: (sessionId) => {
      const id = sessionId ?? shownSessionId(acp);
      if (id) acp.queues.resume(id);
    },
    queueWaiting: (sessionId) => acp.queues.view(sessionId ?? shownSessionId(acp)).waiting ?? undefined,
    sessionsWaiting: () => acp.attention.waiting,
    conversation: (sessionId) => {
      const record = sessionId === undefined ? (acp.sessions.active ?? acp.sessions.all.at(-1)) : acp.sessions.session(sessionId);
      return (record?.state.transcript ?? []).flatMap((e) => (e.type === 'message' ? [{ role: e.role, text: e.text }] : []));
    },
    cancel: (sessionId) => acp.verbs.cancel(sessionId),
    newSession: async (agentName) => (await acp.verbs.newSession(agentName)).state.sessionId,
    stopAgent: (agentName) => acp.agents.stop(agentName),
    sessions: () => {
      const activeId = acp.sessions.active?.state.sessionId;
      return openSessionsOf(acp.sessions, acp.permissions, acp.elicitations, true).map((s) => {
        const record = acp.sessions.session(s.sessionId);
        const parent = record?.parent;
        const subagent = parent && acp.sessions.session(parent.sessionId)?.state.subagent(parent.childId);
        const parentToolCallId = subagent?.parentToolCallId ?? record?.state.spawnedBy;
        return {
          sessionId: s.sessionId,
          agent: record?.agentKey ?? '',
          agentName: s.agentName,
          title: subagent ? subagentName(subagent) : sessionTitle(s),
          busy: s.busy,
          active: s.sessionId === activeId,
          activity: sessionActivity(s),
          agentRunning: record?.connection.process.isAlive ?? false,
          ...(parent ? { parentSessionId: parent.sessionId } : {}),
          ...(parentToolCallId ? { parentToolCallId } : {}),
          ...(subagent ? { subagent: { state: activityLabel(subagent), activity: subagent.activity, background: subagent.background, cancellable: subagent.cancellable, ...(subagent.report ? { report: subagent.report } : {}) } } : {}),
        };
      });
    },
    setActiveSession: (sessionId) => void acp.sessions.setActive(sessionId),
    closeSession: (sessionId) => acp.verbs.closeSession(sessionId),
    runningAgents: () => acp.agents.runningKeys,
    restartAgent: async () => (await acp.verbs.restart()).state.sessionId,
    pendingPermissions: () =>
      acp.permissions.requests.pending().map((q) => ({
        id: q.id,
        sessionId: q.sessionId,
        toolCallId: q.toolCall.toolCallId,
        title: PermissionService.titleOf(q),
        kind: q.toolCall.kind ?? undefined,
        options: q.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
        ...optional('hunks', acp.partialApprovals.hunkCount(q)),
      })),
    answerPermission: (id, kind, options) => acp.partialApprovals.answer(id, kind, options),
    partialApprovals: () => acp.partialApprovals.list().map((r) => ({ sessionId: r.sessionId, toolCallId: r.toolCallId, path: r.path, total: r.total, kept: [...r.kept], reverted: [...r.reverted], status: r.status, note: r.note, ...(r.told ? { told: r.told } : {}) })),
    onDidChangePermissions: permissionsChanged.event,
    openForms: () => acp.elicitations.openForms().map(({ inline: _inline, ...form }) => form),
    answerForm: (id, action, answers = {}) => acp.elicitations.answerIfOpen(id, action, answers),
    largeCopies: () => acp.actionLog.largeCopiesOnDisk(),
    changes: () => {
      const sessionId = acp.sessions.active?.state.sessionId;
      return sessionId ? acp.actionLog.views(sessionId).map((view) => loggedChange(sessionId, view, acp.actionLog.largeBusy(view.change))) : [];
    },
    undoSubagentChanges: async (sessionId) => {
      const outcomes = await undoSubagentChanges(acp, sessionId);
      return outcomes.filter((o) => o.undone.length > 0).length;
    },
    keepHunk: (path, index) => {
      const { sessionId, change } = latestChange(acp, path);
      return acp.actionLogActions.keepHunk(sessionId, change.id, index);
    },
    undoHunk: async (path, index) => {
      const { sessionId, change } = latestChange(acp, path);
      return acp.actionLogActions.undo(sessionId, change.id, [index]);
    },
    reapplyHunk: async (path, index) => {
      const { sessionId, change } = latestChange(acp, path);
      return acp.actionLogActions.reapply(sessionId, change.id, [index]);
    },
    restoreCheckpoint: async (turn) => {
      const sessionId = acp.sessions.active?.state.sessionId;
      if (!sessionId) throw new Error('There is no active session.');
      return acp.actionLogActions.restoreCheckpoint(sessionId, turn);
    },
    undoRestore: () => acp.actionLogActions.undoRestore(),
    resendFrom: async (turn, text) => {
      const sessionId = acp.sessions.active?.state.sessionId;
      if (!sessionId) throw new Error('There is no active session.');
      const branch = await acp.chat.resend.resend(sessionId, turn, text, { ask: false });
      if (branch === undefined) throw new Error('Edit & resend did not go on.');
      return branch;
    },
    checkpoints: () => {
      const sessionId = acp.sessions.active?.state.sessionId;
      if (!sessionId) return [];
      return acp.checkpoints.prompts(sessionId).map(({ turn }) => ({ turn, files: acp.actionLogActions.restoreFiles(sessionId, turn).length }));
    },
    get activeSessionId() {
      return acp.sessions.active?.state.sessionId;
    },
    toolCalls: (sessionId) => {
      const session = sessionId === undefined ? (acp.sessions.active ?? acp.sessions.all.at(-1)) : acp.sessions.session(sessionId);
      return session ? session.state.toolCalls().map((call) => renderedCall(acp, session, call)) : [];
    },
    sessionTree: (sessionId) => {
      const id = sessionId ?? acp.sessions.active?.state.sessionId;
      return id && acp.sessions.session(id) ? treeItem(acp, sessionNode(id)) : undefined;
    },
    onDidChangeToolCalls: changed.event,
    stats: () => {
      const session = acp.sessions.active ?? acp.sessions.all.at(-1);
      return {
        treeRefreshes: probes.counter('tree.refreshes'),
        treeItems: { served: probes.counter('tree.itemsServed'), built: probes.counter('tree.itemsBuilt') },
        hunkLenses: { checks: probes.counter('lenses.checks'), refreshes: probes.counter('lenses.refreshes') },
        ...acp.sessionCounters.of(session),
        toolCallsViewVisible: acp.tree.view.visible,
        kept: {
          diffCards: probes.read('kept.diffCards'),
          terminalSessions: probes.read('kept.terminalSessions'),
          followAlongSessions: probes.read('kept.followAlongSessions'),
          diffBeforeChars: probes.read('kept.diffBeforeChars'),
        },
        sessionIds: acp.sessions.all.map((s) => s.state.sessionId),
        availableCommands: (session?.state.availableCommands ?? []).map((c) => c.name),
        activation,
        window: { ...acp.pacing.shown(), ...(typeof acp.tree.view.description === 'string' ? { progress: acp.tree.view.description } : {}) },
      };
    },
    sessionHistory: async () => {
      const entries = await acp.chat.earlierSessions();
      return entries.map((s) => ({ sessionId: s.sessionId, title: s.title ?? undefined }));
    },
    loadSession: async (sessionId) => {
      await acp.verbs.loadSession(sessionId);
    },
    deleteSession: (sessionId) => acp.chat.deleteSession(sessionId),
    exportSession: (sessionId) => sessionMarkdown({ sessions: acp.sessions, verbs: acp.verbs, terminalOutput: (id) => acp.terminalViews.get(id)?.pty.renderedText }, sessionId),
    chatMessagesPosted: () => ({
      reset: probes.counter('chat.reset'),
      patch: probes.counter('chat.patch'),
      status: probes.counter('chat.status'),
      progress: probes.counter('chat.progress'),
    }),
    registryAgents: () => acp.registry.catalogue(),
    addRegistryAgent: (id) => acp.registry.add(id),
    removeRegistryAgent: (id) => acp.registry.remove(id),
    useAgent: (name) => acp.registry.use(name),
    authMethods: () => (acp.agents.runningAgent?.authMethods ?? []).map((m) => ({ id: m.id, name: m.name, type: m.type })),
    signIn: async (methodId, secret) => {
      if (!(await acp.signIn.signIn(methodId, secret))) throw new Error('Sign-in was cancelled.');
    },
    ...sessionEventsApi(acp.sessions),
  };
}

/** The session the chat shows: the active one, else the newest (one whose agent stopped is active no more). */
function shownSessionId(acp: AcpNative): string | undefined {
  return (acp.sessions.active ?? acp.sessions.all.at(-1))?.state.sessionId;
}

function latestChange(acp: AcpNative, path: string): { sessionId: string; change: FileChange } {
  const sessionId = acp.sessions.active?.state.sessionId;
  if (!sessionId) throw new Error('There is no active session.');
  const change = acp.actionLog.log.latestOf(sessionId, path);
  if (!change) throw new Error(`The agent has not changed ${path} in this session.`);
  return { sessionId, change };
}

function loggedChange(sessionId: string, view: FileChangeView, checking: boolean): LoggedChange {
  const { change } = view;
  let conflicts = 0;
  const after = change.after ? snapshotText(change.after) : undefined;
  const now = currentFile(change.path);
  if (after?.ok && now.kind === 'text' && view.status !== 'no-undo' && !view.created && !view.deleted) {
    const places = placeHunks(after.text, now.text, view.hunks);
    conflicts = places.filter((p, i) => !p.ok && change.hunkStates[i] === 'pending').length;
  }
  return {
    sessionId: change.madeBy ?? sessionId,
    turn: change.turn,
    path: change.path,
    hunks: view.hunks.length,
    hunkStates: [...change.hunkStates],
    status: view.status,
    source: change.source,
    ...(view.reason ? { reason: view.reason } : {}),
    conflicts,
    created: view.created,
    deleted: view.deleted,
    added: view.added,
    removed: view.removed,
    wholeFile: view.wholeFile,
    checking,
  };
}

function renderedCall(acp: AcpNative, session: SessionRecord, call: ToolCallState): RenderedToolCall {
  const sessionId = session.state.sessionId;
  const card = cardOf(call);
  const rendered: RenderedToolCall = {
    id: call.id,
    title: callDisplayTitle(call),
    agentTitle: call.title,
    kind: call.kind,
    status: call.status,
    card,
    uris: [...acp.diffEditors.urisOf(sessionId, call.id)],
    tree: treeItem(acp, callNode(sessionId, call.id)),
    ...(call.rawOutput !== undefined ? { rawOutput: call.rawOutput } : {}),
  };
  const view = call.terminalId ? acp.terminalViews.get(call.terminalId) : undefined;
  if (view) {
    const pty = view.pty;
    rendered.terminal = {
      id: view.terminalId,
      name: view.name,
      // Read when asked (an enumerable getter: spreads and JSON see it): joining up to 1 MB of a
      // flooding panel's output for every toolCalls() call, whether or not the caller looks at it,
      // made a caller polling toolCalls() a flood's main source of long-lived garbage.
      get output() {
        return pty.renderedText;
      },
      ...(pty.ended ? { exit: pty.ended } : {}),
    };
  }
  return rendered;
}

function treeItem(acp: AcpNative, node: TreeNode): RenderedTreeItem {
  const item = acp.tree.item(node);
  const label = typeof item.label === 'string' ? item.label : (item.label?.label ?? '');
  return {
    label,
    ...(typeof item.description === 'string' ? { description: item.description } : {}),
    ...(item.iconPath instanceof vscode.ThemeIcon ? { icon: item.iconPath.id } : {}),
    ...(item.command ? { command: { command: item.command.command, arguments: item.command.arguments ?? [] } } : {}),
    ...(item.contextValue ? { contextValue: item.contextValue } : {}),
    children: acp.tree.children(node).map((child) => treeItem(acp, child)),
  };
}
