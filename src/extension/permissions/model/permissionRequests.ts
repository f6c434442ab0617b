/**
 * The agent's pending permission questions (pure). One registry serves every place a person can
 * answer (a notification today, the chat view later, the API): the first answer wins, later
 * clicks do nothing, and cancelling a turn answers all its questions `cancelled`.
 *
 * An "always" answer is the agent's to remember, in the scope its option names ("commands that
 * start with `npm test`", "these files", Claude's three plan approvals): the editor never answers
 * a later question for the person, since a standing answer per tool kind would approve more than
 * was picked.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { displayTitle, type TitleContext } from '../../workspace/model/displayTitle';

export interface PermissionQuestion {
  readonly id: number;
  readonly sessionId: string;
  readonly toolCall: acp.ToolCallUpdate;
  readonly options: readonly acp.PermissionOption[];
}

export type PermissionAnswer = { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' };

export class PermissionRequests {
  private nextId = 1;
  private readonly open = new Map<number, { question: PermissionQuestion; resolve: (a: PermissionAnswer) => void }>();
  private readonly listeners = new Set<() => void>();

  /** Fires when a question is added or answered. */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Asks a question; the answer comes when someone picks an option, or `cancelled`. */
  ask(sessionId: string, toolCall: acp.ToolCallUpdate, options: readonly acp.PermissionOption[]): { question: PermissionQuestion; answer: Promise<PermissionAnswer> } {
    const question: PermissionQuestion = { id: this.nextId++, sessionId, toolCall, options };
    const answer = new Promise<PermissionAnswer>((resolve) => this.open.set(question.id, { question, resolve }));
    this.changed();
    return { question, answer };
  }

  /** Answers with the option of this id. False when the question was already answered or the id is unknown. */
  answer(questionId: number, optionId: string): boolean {
    const entry = this.open.get(questionId);
    if (!entry?.question.options.some((o) => o.optionId === optionId)) return false;
    this.settle(questionId, { outcome: 'selected', optionId });
    return true;
  }

  /** Answers one question `cancelled`. */
  cancel(questionId: number): boolean {
    if (!this.open.has(questionId)) return false;
    this.settle(questionId, { outcome: 'cancelled' });
    return true;
  }

  /** Answers every open question of a session (or of all sessions) `cancelled`; returns how many. */
  cancelAll(sessionId?: string): number {
    let count = 0;
    for (const { question } of [...this.open.values()]) {
      if (sessionId === undefined || question.sessionId === sessionId) {
        this.settle(question.id, { outcome: 'cancelled' });
        count++;
      }
    }
    return count;
  }

  isOpen(questionId: number): boolean {
    return this.open.has(questionId);
  }

  pending(sessionId?: string): PermissionQuestion[] {
    return [...this.open.values()].map((e) => e.question).filter((q) => sessionId === undefined || q.sessionId === sessionId);
  }

  private settle(questionId: number, answer: PermissionAnswer): void {
    const entry = this.open.get(questionId);
    if (!entry) return;
    this.open.delete(questionId);
    entry.resolve(answer);
    this.changed();
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}

/**
 * What the question is about, as a person reads it: the call's title with its absolute paths
 * made relative to the workspace ("Edit src/a.ts").
 */
export function permissionTitle(toolCall: acp.ToolCallUpdate, ctx: TitleContext): string {
  const paths = [
    ...(toolCall.content ?? []).flatMap((c) => (c.type === 'diff' ? [c.path] : [])),
    ...(toolCall.locations ?? []).map((l) => l.path),
  ];
  return displayTitle(toolCall.title ?? 'use a tool', paths, ctx);
}

/**
 * The edit a question is about: its own diffs, else those of the call's card. Codex asks about a
 * patch with `{title: "Edit files", locations}` and no diff; the diff came with the call before.
 */
export function questionDiffs(question: readonly acp.ToolCallContent[] | null | undefined, card: readonly acp.ToolCallContent[] | undefined): Diff[] {
  const own = (question ?? []).filter(isDiff);
  return own.length > 0 ? own : (card ?? []).filter(isDiff);
}

type Diff = Extract<acp.ToolCallContent, { type: 'diff' }>;
const isDiff = (content: acp.ToolCallContent): content is Diff => content.type === 'diff';

/**
 * Why a permission request cannot be asked, or undefined when it can: a question without options
 * (or without a way to say yes or no) is one nobody can answer, and would hang the turn.
 */
export function unanswerableReason(options: unknown): string | undefined {
  if (!Array.isArray(options) || options.length === 0) return 'session/request_permission needs at least one option; none was given.';
  const kinds = new Set<unknown>(options.map((o: { kind?: unknown } | null) => o?.kind));
  const known = ['allow_once', 'allow_always', 'reject_once', 'reject_always'];
  if (![...kinds].some((k) => known.includes(k as string))) return 'session/request_permission needs options of a known kind (allow_once, allow_always, reject_once, reject_always).';
  return undefined;
}

