import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { Disposable } from '../base/lifecycle';
import { errorMessage, type Logger } from '../base/log';
import type { PermissionService } from '../permissions/permissionService';
import type { PermissionQuestion } from '../permissions/model/permissionRequests';
import { optionOf } from '../permissions/model/autoApprove';
import type { AgentSessions } from '../session/agentSessions';
import type { ActionLogCapture } from '../review/actionLogCapture';
import type { ActionLogActions } from '../review/actionLogActions';
import { snapshotText, type FileChange } from '../review/model/actionLog';
import { currentFile, realPath } from '../review/snapshotFiles';
import { openDocumentOf } from '../workspace/workspaceText';
import { fileDisplayPath } from '../workspace/titles';
import type { SteerOutcome } from '../queue/model/steering';
import {
  isProposal,
  keepProblem,
  keptSummary,
  keptText,
  matchingHunks,
  oneLine,
  partialMessage,
  proposalOf,
  rejectedOf,
  reappliedMessage,
  rejectMessage,
  type Proposal,
  type ProposedDiff,
  type ProposedEdit,
} from './model/hunkChoice';
import type { AgentNotes } from './model/agentNotes';

/**
 * How long the agent's own write may take to land after the answer (Claude's adapter writes within
 * a second): past it nothing is reverted, and the card says so.
 */
export const LANDING_WAIT_MS = 30_000;
/** Partial answers kept for the API and Review, newest last: a long session does not grow without end. */
const MAX_RECORDS = 200;

export type PartialStatus =
  /** Answered; the agent's write has not landed yet. */
  | 'waiting'
  /** The file holds exactly the kept hunks. */
  | 'applied'
  /** The write landed but nothing was reverted automatically (the note says why). */
  | 'not-reverted'
  /** Rejected with a reason. */
  | 'rejected';

/** The record of one partial answer, for the card, the API and Review. */
export interface PartialApproval {
  readonly questionId: number;
  readonly sessionId: string;
  readonly toolCallId: string;
  readonly path: string;
  /** Hunks of the proposal (0 for a rejection of a call without hunks). */
  readonly total: number;
  /** Indexes (0-based) of the hunks kept. */
  readonly kept: readonly number[];
  /** Indexes (0-based) of the hunks the file does not hold: never written, or reverted. */
  readonly reverted: readonly number[];
  status: PartialStatus;
  /** What happened, in words: shown on the card. */
  note: string;
  /** How the agent was told, once it was. */
  told?: string;
}

interface Plan {
  readonly record: PartialApproval;
  readonly edit: ProposedEdit;
  readonly realPath: string;
  /** The agent wrote through `fs/write_text_file`: the kept text was written instead. */
  viaFs: boolean;
  timer?: NodeJS.Timeout;
  checking?: boolean;
}

export interface AnswerOptions {
  /** Which option of the kind, when several share it (Claude's plan approval); else the first. */
  readonly optionId?: string;
  /** 0-based indexes of the hunks to keep (allow kinds only). */
  readonly keepHunks?: readonly number[];
  /** A one-line reason sent to the agent (reject kinds only). */
  readonly reason?: string;
}

/**
 * Partial approval of an edit at its question, for every kind of agent. The hunks are those
 * between the file now and what the question proposes (`model/hunkChoice.ts`).
 *
 * - An agent that writes through `fs/write_text_file` gets the kept hunks written instead of its
 *   text (`contentFor`), while its call runs.
 * - An agent that writes to disk itself is answered with its allow option; once its write lands
 *   (the call completes, or the action log sees the file), the rejected hunks are undone with the
 *   action log's byte-exact undo — only when what landed is exactly what was proposed and the
 *   file has no unsaved changes. Otherwise nothing is reverted, and the card says so.
 *
 * Either way the agent is told what was kept and what was not: by steering its running turn when
 * it takes that, else at the start of the next prompt (`AgentNotes`).
 */
export class PartialApprovals extends Disposable {
  private readonly proposals = new Map<number, Proposal>();
  private readonly plans: Plan[] = [];
  private readonly records: PartialApproval[] = [];
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  /** A partial answer was recorded or its outcome changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly deps: {
      log: Logger;
      permissions: PermissionService;
      sessions: AgentSessions;
      capture: ActionLogCapture;
      actions: ActionLogActions;
      verbs: { steer(sessionId: string, prompt: string): Promise<SteerOutcome> };
      notes: AgentNotes;
    },
  ) {
    super();
    this._register(
      deps.permissions.requests.onDidChange(() => {
        for (const id of [...this.proposals.keys()]) if (!deps.permissions.requests.isOpen(id)) this.proposals.delete(id);
      }),
    );
    this._register(
      deps.sessions.onToolCallApplied((sessionId, applied) => {
        const status = applied.call.status;
        if (status !== 'completed' && status !== 'failed') return;
        for (const plan of [...this.plans]) {
          if (plan.record.sessionId !== sessionId || plan.record.toolCallId !== applied.call.id) continue;
          // A call that wrote through fs/write_text_file is over: a later write is another call's.
          if (plan.viaFs) this.drop(plan);
          // After the action log's own listener settled the change.
          else setImmediate(() => void this.check(plan, status));
        }
      }),
    );
    this._register(
      deps.capture.onDidChange((sessionId) => {
        for (const plan of this.plans) if (plan.record.sessionId === sessionId && !plan.viaFs) void this.check(plan, undefined);
      }),
    );
    this._register(deps.actions.onDidReapply(({ sessionId, change, reapplied }) => void this.reapplied(sessionId, change, reapplied)));
    this._register({ dispose: () => this.plans.forEach((p) => clearTimeout(p.timer)) });
    // A closed session's notes would never be sent.
    this._register(
      deps.sessions.onDidChangeSessions(() => {
        const open = new Set(deps.sessions.all.map((s) => s.state.sessionId));
        deps.notes.forgetAllBut(open);
      }),
    );
  }

  /** The proposal of an open question (its hunks), or why it has none. */
  proposal(question: PermissionQuestion): Proposal {
    const known = this.proposals.get(question.id);
    if (known) return known;
    const diffs: ProposedDiff[] = this.deps.permissions.diffsOf(question).map((c) => ({ path: c.path, oldText: c.oldText, newText: c.newText }));
    const proposal = diffs.length === 1 ? proposalOf(diffs, currentFile(diffs[0].path)) : proposalOf(diffs, { kind: 'absent' });
    if (this.deps.permissions.requests.isOpen(question.id)) this.proposals.set(question.id, proposal);
    return proposal;
  }

  /** How many hunks an open question offers; undefined when it has no diff to choose from. */
  hunkCount(question: PermissionQuestion): number | undefined {
    const proposal = this.proposal(question);
    return proposal.ok ? proposal.edit.hunks.length : undefined;
  }

  /** Every partial answer of a session (all sessions when omitted), oldest first. */
  list(sessionId?: string): readonly PartialApproval[] {
    return this.records.filter((r) => sessionId === undefined || r.sessionId === sessionId);
  }

  /** The partial answer about a tool call, if there was one. */
  of(sessionId: string, toolCallId: string): PartialApproval | undefined {
    return this.records.filter((r) => r.sessionId === sessionId && r.toolCallId === toolCallId).at(-1);
  }

  /**
   * Answers a question by option kind (and id, when given), keeping only some hunks or giving a reason. False when the
   * question is not open (answered, cancelled). Throws, answering nothing, for a choice that
   * cannot be carried out (hunks of a question without any, an index out of range, hunks with a
   * rejection).
   */
  answer(questionId: number, kind: acp.PermissionOptionKind, options: AnswerOptions = {}): boolean {
    const { permissions } = this.deps;
    const question = permissions.requests.pending().find((q) => q.id === questionId);
    if (!question) return false;
    if (options.optionId !== undefined && !optionOf(question.options, kind, options.optionId)) throw new Error(`The question has no ${kind} option "${options.optionId}".`);
    const allow = kind === 'allow_once' || kind === 'allow_always';
    if (options.keepHunks !== undefined && !allow) throw new Error('keepHunks goes with an allow answer; a rejection keeps nothing.');
    if (options.reason !== undefined && allow) throw new Error('A reason goes with a rejection.');
    if (options.keepHunks === undefined) {
      const answered = permissions.answerWith(questionId, kind, options.optionId);
      if (answered && options.reason !== undefined && oneLine(options.reason) !== '') this.rejected(question, options.reason);
      return answered;
    }
    const proposal = this.proposal(question);
    if (!proposal.ok) throw new Error(`This question has no hunks to choose from: ${proposal.reason}.`);
    const { edit } = proposal;
    const problem = keepProblem(options.keepHunks, edit.hunks.length);
    if (problem) throw new Error(`Cannot keep those hunks: ${problem}.`);
    const keep = [...new Set(options.keepHunks)].sort((a, b) => a - b);
    if (keep.length === edit.hunks.length) return permissions.answerWith(questionId, kind, options.optionId);
    const record: PartialApproval = {
      questionId,
      sessionId: question.sessionId,
      toolCallId: question.toolCall.toolCallId,
      path: edit.path,
      total: edit.hunks.length,
      kept: keep,
      reverted: rejectedOf(keep, edit.hunks.length),
      status: 'waiting',
      note: `${keptSummary(keep.length, edit.hunks.length)}: waiting for the agent's write`,
    };
    const plan: Plan = { record, edit, realPath: realPath(edit.path), viaFs: false };
    // Before the answer goes out: the agent may write at once.
    this.plans.push(plan);
    this.remember(record);
    if (!permissions.answerWith(questionId, kind, options.optionId)) {
      this.drop(plan);
      const at = this.records.indexOf(record);
      if (at !== -1) this.records.splice(at, 1);
      return false;
    }
    plan.timer = setTimeout(() => this.gaveUp(plan), LANDING_WAIT_MS);
    this.changeEmitter.fire();
    return true;
  }

  /**
   * What an `fs/write_text_file` of a session writes: the kept hunks when it is the write of a call
   * answered in part (the proposed text, byte for byte), else the agent's text as sent.
   */
  contentFor(sessionId: string, path: string, content: string): string {
    const target = realPath(path);
    const plan = this.plans.find((p) => p.record.sessionId === sessionId && p.realPath === target && (p.record.status === 'waiting' || p.viaFs));
    if (!plan) return content;
    plan.viaFs = true;
    clearTimeout(plan.timer);
    if (!isProposal(plan.edit, content)) {
      // A second write of the same call, or a write that is not the proposal: it goes as sent.
      if (plan.record.status === 'waiting') this.settle(plan, 'not-reverted', `the agent wrote other text than it proposed: written as sent, nothing left out`);
      return content;
    }
    const kept = keptText(plan.edit, plan.record.kept);
    if (plan.record.status === 'waiting') this.settle(plan, 'applied', `${keptSummary(plan.record.kept.length, plan.record.total)}: ${hunkList(plan.record.reverted)} not written`);
    return kept;
  }

  /** The agent's own write may have landed: undo the rejected hunks once it is exactly the proposal. */
  private async check(plan: Plan, callEnded: 'completed' | 'failed' | undefined): Promise<void> {
    if (plan.record.status !== 'waiting' || plan.viaFs || plan.checking) return;
    const change = this.changeOf(plan);
    if (!change?.after) {
      if (callEnded === 'failed') this.settle(plan, 'not-reverted', 'the call failed: nothing was reverted');
      return;
    }
    const after = snapshotText(change.after);
    // The capture has the file, but the call may still be writing: wait for its end unless it is the proposal already.
    if (!after.ok || after.text !== plan.edit.after) {
      if (callEnded === undefined) return;
      this.settle(plan, 'not-reverted', after.ok ? 'the agent wrote something other than it proposed: nothing was reverted, review the file' : `nothing was reverted: the file is ${after.reason} now`);
      return;
    }
    plan.checking = true;
    try {
      await this.revert(plan, change);
    } catch (error) {
      this.settle(plan, 'not-reverted', `nothing was reverted: ${errorMessage(error)}`);
    } finally {
      plan.checking = false;
    }
  }

  private async revert(plan: Plan, change: FileChange): Promise<void> {
    const { record } = plan;
    // First: the user's unsaved text is never merged with blindly (the hunks were laid over it, not over the disk).
    const doc = await openDocumentOf(change.path);
    if (doc?.isDirty) return this.settle(plan, 'not-reverted', `the file has unsaved changes in the editor: nothing was reverted; undo ${hunkList(record.reverted)} from Review once it is saved`);
    const view = this.deps.capture.view(change);
    const rejected = matchingHunks(plan.edit.hunks, view.hunks, record.reverted);
    const keptInLog = matchingHunks(plan.edit.hunks, view.hunks, record.kept);
    if (!rejected || !keptInLog) return this.settle(plan, 'not-reverted', 'the written hunks are not the proposed ones: nothing was reverted, review the file');
    const outcome = await this.deps.actions.undo(record.sessionId, change.id, rejected);
    if (outcome.refused || outcome.undone.length !== rejected.length) {
      const why = outcome.refused ?? `${outcome.conflicts.length} hunk(s) were changed since the write`;
      return this.settle(plan, 'not-reverted', `${why}: ${outcome.undone.length ? 'some hunks were reverted' : 'nothing was reverted'}, review the file`);
    }
    for (const i of keptInLog) this.deps.actions.keepHunk(record.sessionId, change.id, i);
    this.settle(plan, 'applied', `${keptSummary(record.kept.length, record.total)}: ${hunkList(record.reverted)} reverted`);
  }

  /** The action log's change of the plan's file by its call. */
  private changeOf(plan: Plan): FileChange | undefined {
    const { sessionId, toolCallId } = plan.record;
    const root = this.deps.sessions.rootOf(sessionId);
    return this.deps.capture.log
      .changes(root)
      .filter((c) => c.path === plan.realPath && c.toolCallIds.includes(toolCallId))
      .at(-1);
  }

  private remember(record: PartialApproval): void {
    this.records.push(record);
    if (this.records.length > MAX_RECORDS) this.records.splice(0, this.records.length - MAX_RECORDS);
  }

  private drop(plan: Plan): void {
    clearTimeout(plan.timer);
    const at = this.plans.indexOf(plan);
    if (at !== -1) this.plans.splice(at, 1);
  }

  private gaveUp(plan: Plan): void {
    if (plan.record.status !== 'waiting' || plan.checking) return;
    this.settle(plan, 'not-reverted', `the agent's write did not land within ${LANDING_WAIT_MS / 1000} s: nothing was reverted`);
  }

  private settle(plan: Plan, status: PartialStatus, note: string): void {
    clearTimeout(plan.timer);
    const { record } = plan;
    record.status = status;
    record.note = note;
    // A call writing through fs/write_text_file may write again: its plan stays until the call ends.
    if (!plan.viaFs) this.drop(plan);
    this.changeEmitter.fire();
    const file = fileDisplayPath(plan.edit.path);
    const message =
      status === 'applied'
        ? partialMessage(file, plan.edit, record.kept)
        : `The user approved only part of your edit of ${file} (${keptSummary(record.kept.length, record.total)}), but ${note}. Ask the user before changing it again.`;
    void this.tellAndNote(record, message, `${file}: ${note}`);
  }

  private rejected(question: PermissionQuestion, reason: string): void {
    const record: PartialApproval = {
      questionId: question.id,
      sessionId: question.sessionId,
      toolCallId: question.toolCall.toolCallId,
      path: (question.toolCall.content ?? []).find((c) => c.type === 'diff')?.path ?? '',
      total: 0,
      kept: [],
      reverted: [],
      status: 'rejected',
      note: `rejected: ${oneLine(reason)}`,
    };
    this.remember(record);
    this.changeEmitter.fire();
    const title = question.toolCall.title ?? 'the tool call';
    void this.tellAndNote(record, rejectMessage(title, reason), `Rejected ${title}: ${oneLine(reason)}`);
  }

  /**
   * Hunks of a change were re-applied from Review: when they are hunks a partial approval of that
   * change reverted, the agent was told they are gone and must hear they are back.
   */
  private async reapplied(logSessionId: string, change: FileChange, reapplied: readonly number[]): Promise<void> {
    const record = [...this.records]
      .reverse()
      .find((r) => r.status === 'applied' && r.reverted.length > 0 && this.deps.sessions.rootOf(r.sessionId) === logSessionId && change.toolCallIds.includes(r.toolCallId));
    if (!record) return;
    const file = fileDisplayPath(change.path);
    const message = reappliedMessage(file, this.deps.capture.view(change).hunks, reapplied);
    const told = await this.tellWithNotice(record.sessionId, message, 'info', `${file}: ${hunkList(reapplied)} re-applied from Review`);
    this.deps.log.info(`Partial approval of ${record.path}: ${hunkList(reapplied)} re-applied from Review; ${told}`);
  }

  /** Tells the agent, then puts the outcome on the card (a notice under the call in the chat). */
  private async tellAndNote(record: PartialApproval, message: string, title: string): Promise<void> {
    const told = this.tellWithNotice(record.sessionId, message, record.status === 'not-reverted' ? 'warning' : 'info', title, (how) => {
      record.told = how;
      this.changeEmitter.fire();
    });
    this.deps.log.info(`Partial approval of ${record.path}: ${record.note}; ${await told}`);
  }

  /**
   * Tells the agent (`told` hears how, at once), then says so in a notice under the call in the
   * chat once the session's updates settled; returns how it was told.
   */
  private async tellWithNotice(sessionId: string, message: string, severity: 'info' | 'warning', title: string, told?: (how: string) => void): Promise<string> {
    let how: string;
    try {
      how = await this.tell(sessionId, message);
    } catch (error) {
      how = `the agent could not be told (${errorMessage(error)})`;
    }
    told?.(how);
    const session = this.deps.sessions.session(sessionId);
    if (!session) return how;
    await this.deps.sessions.settled(sessionId);
    session.state.apply({ sessionUpdate: 'notice', severity, title, description: `${capitalize(how)}.` });
    session.state.flushNow();
    return how;
  }

  /** Steers the running turn when the agent takes it, else keeps the message for the next prompt. */
  private async tell(sessionId: string, message: string): Promise<string> {
    const session = this.deps.sessions.session(sessionId);
    if (!session) return 'the session is closed: the agent was not told';
    if (session.busy && session.connection.canSteer) {
      const outcome = await this.deps.verbs.steer(sessionId, message);
      if (outcome.kind === 'injected') return 'the agent was told at once (steered)';
      this.deps.notes.add(sessionId, message);
      return outcome.kind === 'failed' ? `not steered (${outcome.reason}): the agent is told with your next prompt` : 'the agent is told with your next prompt';
    }
    this.deps.notes.add(sessionId, message);
    return 'the agent is told with your next prompt';
  }
}

function hunkList(indexes: readonly number[]): string {
  return `${indexes.length === 1 ? 'hunk' : 'hunks'} ${indexes.map((i) => i + 1).join(', ')}`;
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
