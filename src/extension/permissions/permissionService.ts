import * as vscode from 'vscode';
import * as acp from '@agentclientprotocol/sdk';
import { isAutoApproved, optionOf, optionOfKind } from './model/autoApprove';
import { PermissionRequests, permissionTitle, questionDiffs, unanswerableReason, type PermissionQuestion } from './model/permissionRequests';
import type { Config } from '../config';
import type { Logger } from '../base/log';
import { titleContext } from '../workspace/titles';
import { Disposable } from '../base/lifecycle';
import { onAnyDispose } from '../base/scope';
import type { SessionRecord } from '../session/agentSessions';
import type { ToolCallState } from '../session/model/toolCalls';
import type { QuestionSurface } from './questionSurface';

const SHOW_DIFF = 'Show Diff';
const REVIEW_HUNKS = 'Review Hunks';

/**
 * `session/request_permission`, and the questions the editor asks on its own (overwrite unsaved
 * changes, outside the workspace). Approved at once when the setting or an earlier "always"
 * answer covers the tool kind; otherwise asked inline in the Chat view when it is visible, else in
 * a notification whose buttons are the options (plus "Show Diff" for an edit, "Compare" for an
 * overwrite). Dismissing the notification rejects once. Cancelling the turn, or the agent
 * cancelling the request, answers the question `cancelled`; a click after that does nothing.
 */
export class PermissionService extends Disposable {
  readonly requests = new PermissionRequests();
  /** A button of an editor question that shows more without answering (Compare), by question id. */
  private readonly inspections = new Map<number, { label: string; run: () => Promise<void> }>();

  constructor(
    private readonly deps: {
      config: Config;
      log: Logger;
      /**
       * The open sessions: a question lives in its session's scopes (see `bind`), and with several
       * agents running the notification says which agent asks.
       */
      sessions: { session(sessionId: string): SessionRecord | undefined };
      /** Opens the diff of the tool call the question is about ("Show Diff"). */
      diffs: { open(session: SessionRecord, call: ToolCallState): Promise<void> };
      /**
       * Whether the questions are on screen elsewhere (the Chat view shows them inline): then no
       * notification is added. The agent's questions and the editor's own follow this rule.
       */
      surface: QuestionSurface;
      /**
       * Partial approval: how many hunks a question's edit offers, and **Review hunks** (the diff
       * with Keep / Reject over each), offered in the notification too.
       */
      hunks?: { count(question: PermissionQuestion): number | undefined; review(questionId: number): Promise<void> };
    },
  ) {
    super();
  }

  /** A question nobody can answer would hang the turn: it is refused at once, as invalid params. */
  validate(params: acp.RequestPermissionRequest): void {
    const unanswerable = unanswerableReason(params.options);
    if (unanswerable) {
      this.deps.log.warn(`Refused a permission request: ${unanswerable}`);
      throw acp.RequestError.invalidParams({ options: params.options }, unanswerable);
    }
  }

  /** The agent's question, once `validate` let it through (requests/clientRequests.ts does both, in order). */
  async request(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const auto = this.deps.config.autoApprove;
    if (isAutoApproved(auto, params.toolCall.kind)) {
      const allow = optionOfKind(params.options, 'allow_once', 'allow_always');
      if (allow) {
        this.deps.log.info(`Permission approved by the setting (${auto}): ${params.toolCall.title ?? params.toolCall.toolCallId}`);
        return { outcome: { outcome: 'selected', optionId: allow.optionId } };
      }
    }
    const { question, answer } = this.requests.ask(params.sessionId, params.toolCall, params.options);
    this.bind(question, answer);
    // The agent gave up on the request ($/cancel_request or the connection closed).
    signal.addEventListener('abort', () => this.requests.cancel(question.id), { once: true });
    if (signal.aborted) this.requests.cancel(question.id);
    const hasDiff = this.diffsOf(question).length > 0;
    const showDiff = () => this.showDiff(question);
    // The chat shows the question, and its tool row opens the diff.
    const agentName = this.deps.sessions.session(question.sessionId)?.agentName;
    if (!this.deps.surface.showsQuestions) void this.notify(question, `${agentName ?? 'The agent'} asks to ${kindVerb(question.toolCall.kind)}: ${PermissionService.titleOf(question)}`, hasDiff ? showDiff : undefined);
    return { outcome: await answer };
  }

  /**
   * A question the editor asks on the agent's behalf (overwrite unsaved changes, go outside the
   * workspace). Same registry, so it can be answered wherever questions are shown and a cancelled
   * turn answers it. True when allowed.
   */
  async confirm(request: {
    sessionId: string;
    title: string;
    message: string;
    allow: string;
    reject: string;
    /** A button that shows more without answering, e.g. a comparison. */
    inspect?: { label: string; run: () => Promise<void> };
    /** The agent's request this question serves: when the agent cancels it, the question closes. */
    signal?: AbortSignal;
  }): Promise<boolean> {
    const allow: acp.PermissionOption = { optionId: 'allow', name: request.allow, kind: 'allow_once' };
    const reject: acp.PermissionOption = { optionId: 'reject', name: request.reject, kind: 'reject_once' };
    const toolCall: acp.ToolCallUpdate = { toolCallId: `editor-question-${Date.now()}`, title: request.title, kind: 'other' };
    if (request.signal?.aborted) return false;
    const { question, answer } = this.requests.ask(request.sessionId, toolCall, [allow, reject]);
    this.bind(question, answer);
    const { signal, inspect } = request;
    const cancel = () => this.requests.cancel(question.id);
    signal?.addEventListener('abort', cancel, { once: true });
    if (inspect) this.inspections.set(question.id, inspect);
    void answer.finally(() => {
      signal?.removeEventListener('abort', cancel);
      this.inspections.delete(question.id);
    });
    if (!this.deps.surface.showsQuestions) void this.notify(question, request.message, inspect?.run, inspect?.label);
    const result = await answer;
    return result.outcome === 'selected' && result.optionId === 'allow';
  }

  /** The label of a question's show-more button (Compare), if it has one. */
  inspectLabel(questionId: number): string | undefined {
    return this.inspections.get(questionId)?.label;
  }

  /** Runs a question's show-more button without answering it. False if it has none. */
  async inspect(questionId: number): Promise<boolean> {
    const inspection = this.inspections.get(questionId);
    if (!inspection) return false;
    await inspection.run();
    return true;
  }

  /**
   * Answers with the option of this kind: the one of `optionId` when given, else the first of the
   * kind. Options may share a kind (Claude's plan approval has three `allow_always`, each a
   * different mode), so a button names its own. False if not open or it has no such option.
   */
  answerWith(questionId: number, kind: acp.PermissionOptionKind, optionId?: string): boolean {
    const option = optionOf(this.requests.pending().find((q) => q.id === questionId)?.options ?? [], kind, optionId);
    return option ? this.requests.answer(questionId, option.optionId) : false;
  }

  /** The edit a question is about: its own diffs, else those of its call's card (see `questionDiffs`). */
  diffsOf(question: PermissionQuestion): ReturnType<typeof questionDiffs> {
    const card = this.deps.sessions.session(question.sessionId)?.state.toolCall(question.toolCall.toolCallId);
    return questionDiffs(question.toolCall.content, card?.content);
  }

  private async showDiff(question: PermissionQuestion): Promise<void> {
    const session = this.deps.sessions.session(question.sessionId);
    const call = session?.state.toolCall(question.toolCall.toolCallId);
    if (session && call) await this.deps.diffs.open(session, call);
  }

  /** A question is answered `cancelled` when its session's turn is cancelled, the session closes or its agent exits. */
  private bind(question: PermissionQuestion, answer: Promise<unknown>): void {
    const record = this.deps.sessions.session(question.sessionId);
    if (!record) return;
    const registration = onAnyDispose([record.questions, record.agentScope], () => this.requests.cancel(question.id));
    void answer.finally(() => registration.dispose());
  }

  static titleOf(question: PermissionQuestion): string {
    return permissionTitle(question.toolCall, titleContext());
  }

  private async notify(question: PermissionQuestion, message: string, inspect?: () => Promise<void>, inspectLabel = SHOW_DIFF): Promise<void> {
    const hunks = this.deps.hunks;
    const reviewable = hunks?.count(question) !== undefined;
    for (;;) {
      const buttons = [...question.options.map((o) => o.name), ...(inspect ? [inspectLabel] : []), ...(reviewable ? [REVIEW_HUNKS] : [])];
      const picked = await vscode.window.showWarningMessage(message, ...buttons);
      if (!this.requests.isOpen(question.id)) return; // answered elsewhere or cancelled
      if (hunks && reviewable && picked === REVIEW_HUNKS) {
        // The choice is made in the diff editor (Allow selected); the question stays open meanwhile.
        await hunks.review(question.id).catch((error: unknown) => this.deps.log.warn(`Review hunks failed: ${String(error)}`));
        return;
      }
      if (inspect && picked === inspectLabel) {
        await inspect().catch((error: unknown) => this.deps.log.warn(`${inspectLabel} failed: ${String(error)}`));
        continue;
      }
      const option = question.options.find((o) => o.name === picked) ?? optionOfKind(question.options, 'reject_once', 'reject_always');
      if (option) this.requests.answer(question.id, option.optionId);
      else this.requests.cancel(question.id);
      return;
    }
  }
}

function kindVerb(kind: acp.ToolKind | null | undefined): string {
  switch (kind) {
    case 'read':
      return 'read';
    case 'edit':
      return 'edit a file';
    case 'delete':
      return 'delete';
    case 'move':
      return 'move';
    case 'search':
      return 'search';
    case 'execute':
      return 'run a command';
    case 'think':
      return 'think';
    case 'fetch':
      return 'fetch';
    case 'switch_mode':
      return 'switch mode';
    case 'other':
    case null:
    case undefined:
      return 'use a tool';
  }
}
