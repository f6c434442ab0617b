import * as vscode from 'vscode';
import { summaryText } from './model/actionLog';
import { fileDisplayPath } from '../workspace/titles';
import type { ActionLogCapture } from './actionLogCapture';
import type { ActionLogActions, ReapplyOutcome, RestoreResult, UndoOutcome } from './actionLogActions';
import { realPath } from './snapshotFiles';
import type { CommandTable } from '../base/commandTable';
import type { HunkLenses } from './hunkLenses';

/** What the review's commands act on (the root hands itself in). */
export interface ReviewCommandDeps {
  readonly actionLog: ActionLogCapture;
  readonly actionLogActions: ActionLogActions;
  readonly sessions: {
    readonly active: { readonly state: { readonly sessionId: string } } | undefined;
    rootOf(sessionId: string): string;
    subtreeOf(sessionId: string): readonly { readonly state: { readonly sessionId: string } }[];
  };
  readonly hunkLenses: Pick<HunkLenses, 'pendingHunks'>;
}

type ReviewCommand = (deps: ReviewCommandDeps, ...args: unknown[]) => unknown;

/** The review's commands: Review, Keep/Undo of a file, a turn or a hunk, checkpoints. Part of the extension's command table. */
export function reviewCommands(deps: ReviewCommandDeps): CommandTable {
  return Object.fromEntries(Object.entries(REVIEW_COMMANDS).map(([id, handler]) => [id, (...args: unknown[]) => handler(deps, ...args)]));
}

const REVIEW_COMMANDS: Record<string, ReviewCommand> = {
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
  // A file's row in Review, or its lens: every undone hunk of that change back as the agent wrote it.
  'acpNative.review.reapply': async (acp, first, second) => {
    const target = actionLogTarget(acp, reviewTarget(acp, first, second));
    if (target === undefined) return undefined;
    if ('changeId' in target) return reportReapply([await acp.actionLogActions.reapply(target.sessionId, target.changeId)]);
    const changes = acp.actionLog.log.changes(target.sessionId).filter((c) => c.turn === target.turn && c.hunkStates.includes('undone'));
    const outcomes: ReapplyOutcome[] = [];
    for (const change of changes) outcomes.push(await acp.actionLogActions.reapply(target.sessionId, change.id));
    return reportReapply(outcomes);
  },
  // A subagent's node in the Tool Calls tree: its changes (and its own subagents') alone.
  'acpNative.undoSubagentChanges': async (acp, target) => {
    const sessionId = typeof target === 'string' ? target : (target as { sessionId?: unknown } | undefined)?.sessionId;
    if (typeof sessionId !== 'string') return undefined;
    return reportUndo(await undoSubagentChanges(acp, sessionId));
  },
  'acpNative.actionLog.keepHunk': (acp, sessionId, changeId, index) => acp.actionLogActions.keepHunk(String(sessionId), Number(changeId), Number(index)),
  'acpNative.actionLog.undoHunk': async (acp, sessionId, changeId, index) =>
    reportUndo([await acp.actionLogActions.undo(String(sessionId), Number(changeId), [Number(index)])]),
  'acpNative.actionLog.reapplyHunk': async (acp, sessionId, changeId, index) =>
    reportReapply([await acp.actionLogActions.reapply(String(sessionId), Number(changeId), [Number(index)])]),
  // The keyboard's way through the agent's hunks in the active editor (the lenses' Keep / Undo).
  'acpNative.actionLog.nextHunk': (acp) => moveToHunk(acp, 1),
  'acpNative.actionLog.previousHunk': (acp) => moveToHunk(acp, -1),
  'acpNative.actionLog.keepHunkAtCursor': (acp) => {
    const hunk = hunkAtCursor(acp);
    if (hunk) acp.actionLogActions.keepHunk(hunk.sessionId, hunk.changeId, hunk.index);
  },
  'acpNative.actionLog.undoHunkAtCursor': async (acp) => {
    const hunk = hunkAtCursor(acp);
    if (hunk) reportUndo([await acp.actionLogActions.undo(hunk.sessionId, hunk.changeId, [hunk.index])]);
  },
  'acpNative.restoreCheckpoint': async (acp, first) => {
    const target = reviewTarget(acp, first, undefined);
    const turn = target.turn ?? (await pickTurn(acp, target.sessionId));
    if (turn === undefined) return undefined;
    const asked = await askAndRestore(acp.actionLogActions, target.sessionId, turn);
    if (asked.kind === 'nothing') void vscode.window.showInformationMessage(`The agent changed no file since prompt ${turn + 1}.`);
    return asked.kind === 'restored' ? asked.result : undefined;
  },
  'acpNative.undoRestore': (acp) => acp.actionLogActions.undoRestore(),
};

/** How a restore that asked first went: nothing to restore, the person said no, or done. */
export type AskedRestore = { readonly kind: 'nothing' } | { readonly kind: 'cancelled' } | { readonly kind: 'restored'; readonly result: RestoreResult };

/** The words of the restore's question, when another action (Edit & resend) restores first. */
export interface RestoreWording {
  readonly title: string;
  readonly button: string;
  /** Said at the end of the question (what happens after the restore). */
  readonly then?: string;
}

/**
 * "Restore to before this prompt" after a modal question listing every file it will put back
 * and every file it leaves alone (changed by the user since, or unsaved in an editor). Then a
 * notification offers Undo Restore (not waited for).
 */
export async function askAndRestore(actions: ActionLogActions, sessionId: string, turn: number, wording?: RestoreWording): Promise<AskedRestore> {
  const plan = await actions.planCheckpointRestore(sessionId, turn);
  const whole = plan.workspace?.folders.flatMap((f) => [...f.write, ...f.remove]) ?? [];
  // Files you changed since that the agent reported changing are merged per hunk: listed to restore.
  const merged = new Set(plan.merged);
  const theirs = new Set((plan.workspace?.userChanged ?? []).filter((f) => !merged.has(f)));
  const files = [...new Set([...plan.files.filter((f) => !theirs.has(f)), ...whole])];
  const conflicts = [...new Set([...(plan.workspace?.conflicts ?? []).filter((f) => !merged.has(f)), ...plan.files.filter((f) => theirs.has(f))])];
  if (files.length === 0 && conflicts.length === 0) return { kind: 'nothing' };
  const list = (paths: string[]): string => paths.slice(0, 40).map((f) => `• ${fileDisplayPath(f)}`).join('\n') + (paths.length > 40 ? `\n… and ${paths.length - 40} more` : '');
  const leftAlone = conflicts.length ? `\n\nLeft alone, changed by you since (or unsaved in an editor):\n${list(conflicts)}` : '';
  const then = wording?.then ? `\n\n${wording.then}` : '';
  const answer = await vscode.window.showWarningMessage(
    wording?.title ?? `Restore to before prompt ${turn + 1}?`,
    { modal: true, detail: `This puts back every file changed since, in ${files.length} ${files.length === 1 ? 'file' : 'files'}:\n${list(files)}${leftAlone}\n\nYour own later edits stay. "Undo Restore" takes it back.${then}` },
    wording?.button ?? 'Restore',
  );
  if (answer !== (wording?.button ?? 'Restore')) return { kind: 'cancelled' };
  const result = await actions.restoreCheckpoint(sessionId, turn, plan);
  const left = result.conflicts.length + result.refused.length;
  void vscode.window
    .showInformationMessage(`Restored ${result.files.length} ${result.files.length === 1 ? 'file' : 'files'} to before prompt ${turn + 1}${left ? `; left ${left} alone (changed since, or no undo)` : ''}.`, 'Undo Restore')
    .then((pick) => (pick === 'Undo Restore' ? actions.undoRestore() : undefined));
  return { kind: 'restored', result };
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
function reviewTarget(acp: ReviewCommandDeps, first: unknown, second: unknown): ReviewTarget {
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
function actionLogTarget(acp: ReviewCommandDeps, target: ReviewTarget): { sessionId: string; changeId: number } | { sessionId: string; turn: number } | undefined {
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
  return reportLeftAlone(outcomes, (n) => `Left ${n} ${n === 1 ? 'hunk' : 'hunks'} alone: changed after the agent's edit.`, 'Nothing undone');
}

/** Says which undone hunks were left alone (the user changed them since the undo), and why nothing was re-applied when nothing was. */
function reportReapply(outcomes: ReapplyOutcome[]): ReapplyOutcome[] {
  return reportLeftAlone(outcomes, (n) => `Left ${n} undone ${n === 1 ? 'hunk' : 'hunks'} alone: changed after the undo.`, 'Nothing re-applied');
}

function reportLeftAlone<T extends { conflicts: readonly number[]; refused?: string }>(outcomes: T[], leftAlone: (count: number) => string, nothing: string): T[] {
  const conflicts = outcomes.reduce((n, o) => n + o.conflicts.length, 0);
  const refused = outcomes.find((o) => o.refused)?.refused;
  if (conflicts) void vscode.window.showWarningMessage(leftAlone(conflicts));
  else if (refused) void vscode.window.showWarningMessage(`${nothing}: ${refused}.`);
  return outcomes;
}

async function pickTurn(acp: ReviewCommandDeps, sessionId: string): Promise<number | undefined> {
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

/** The hunk the cursor is in or below (the last one starting at or above it), else the first. */
function hunkAtCursor(acp: ReviewCommandDeps): ReturnType<HunkLenses['pendingHunks']>[number] | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const hunks = acp.hunkLenses.pendingHunks(editor.document);
  if (hunks.length === 0) {
    void vscode.window.showInformationMessage('ACP: no agent hunk to review in this file.');
    return undefined;
  }
  const line = editor.selection.active.line;
  return [...hunks].reverse().find((h) => h.line <= line) ?? hunks[0];
}

/** Puts the cursor on the next (or previous) agent hunk of the active editor, wrapping around. */
function moveToHunk(acp: ReviewCommandDeps, step: 1 | -1): void {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return;
  const lines = acp.hunkLenses.pendingHunks(editor.document).map((h) => h.line);
  if (lines.length === 0) {
    void vscode.window.showInformationMessage('ACP: no agent hunk to review in this file.');
    return;
  }
  const here = editor.selection.active.line;
  const target = step === 1 ? (lines.find((l) => l > here) ?? lines[0]) : ([...lines].reverse().find((l) => l < here) ?? lines.at(-1));
  if (target === undefined) return;
  const position = new vscode.Position(target, 0);
  editor.selection = new vscode.Selection(position, position);
  editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** Undoes what one subagent's session (and those under it) changed, leaving the rest of the turn. */
export function undoSubagentChanges(deps: ReviewCommandDeps, sessionId: string): Promise<UndoOutcome[]> {
  const madeBy = new Set(deps.sessions.subtreeOf(sessionId).map((s) => s.state.sessionId));
  return deps.actionLogActions.undoSubagent(deps.sessions.rootOf(sessionId), madeBy);
}
