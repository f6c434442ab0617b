/**
 * A session's prompt queue (pure): what the user sent while a turn ran, in the order it will go,
 * and whether it flows (the next goes when a turn ends) or waits for the user (after a cancel, a
 * refusal or an error: sending on would act on an answer the user has not seen).
 */
import { assertNever } from '../../../protocol/assertNever';

/** More than this many waiting prompts is a paste loop or a script gone wrong, not a plan. */
export const MAX_QUEUED = 100;

export interface QueuedPrompt<A> {
  readonly id: string;
  /** The typed text: what the queue shows and Edit changes. */
  readonly text: string;
  /** What went with it (chips, images): sent after the text, never edited. */
  readonly attachments: readonly A[];
  /** Why it is here rather than in the conversation (a steer the agent refused…), if not plainly queued. */
  readonly note?: string;
}

/** How a turn ended, as the queue needs to know it. */
export type TurnOutcome = { readonly kind: 'stopped'; readonly stopReason: string } | { readonly kind: 'failed'; readonly message: string };

/** Stop reasons after which the next prompt goes on its own: the agent finished what it was asked. */
const FLOWING_STOPS: ReadonlySet<string> = new Set(['end_turn', 'max_tokens', 'max_turn_requests']);

export type QueueResult = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** The stored form of a queue (kept with the session across reloads). */
export interface QueueSnapshot<A> {
  readonly items: readonly { readonly text: string; readonly attachments: readonly A[]; readonly note?: string }[];
  readonly waiting?: string;
}

export class PromptQueue<A> {
  private list: QueuedPrompt<A>[] = [];
  private waitingFor: string | undefined;
  private nextId = 1;

  constructor(private readonly idPrefix = 'q') {}

  get items(): readonly QueuedPrompt<A>[] {
    return this.list;
  }

  /** Why the queue waits for the user (Resume or Clear), or undefined when it flows. */
  get waiting(): string | undefined {
    return this.waitingFor;
  }

  get size(): number {
    return this.list.length;
  }

  /** Adds a prompt at the end (or at the front: a steer that became the next prompt). */
  add(text: string, attachments: readonly A[] = [], options: { note?: string; first?: boolean } = {}): QueuedPrompt<A> | { error: string } {
    if (this.list.length >= MAX_QUEUED) return { error: `The queue holds ${MAX_QUEUED} prompts at most; send or remove some first.` };
    const item: QueuedPrompt<A> = { id: `${this.idPrefix}${this.nextId++}`, text, attachments, ...(options.note ? { note: options.note } : {}) };
    if (options.first) this.list.unshift(item);
    else this.list.push(item);
    return item;
  }

  /** Puts a prompt taken to be sent back at the front, as it was: its send never began a turn. */
  putBack(item: QueuedPrompt<A>): void {
    this.list.unshift(item);
  }

  get(id: string): QueuedPrompt<A> | undefined {
    return this.list.find((item) => item.id === id);
  }

  /** Changes a waiting prompt's text (its attachments stay); an empty text is refused. */
  edit(id: string, text: string): QueueResult {
    if (!text.trim()) return { ok: false, error: 'A queued prompt cannot be empty; remove it instead.' };
    const index = this.list.findIndex((item) => item.id === id);
    if (index < 0) return { ok: false, error: 'That prompt is no longer in the queue (it was sent or removed).' };
    const { note: _dropped, ...rest } = this.list[index] as QueuedPrompt<A>;
    this.list[index] = { ...rest, text };
    return { ok: true };
  }

  remove(id: string): QueuedPrompt<A> | undefined {
    const index = this.list.findIndex((item) => item.id === id);
    if (index < 0) return undefined;
    return this.list.splice(index, 1)[0];
  }

  /** Moves a prompt to `to` (clamped to the queue). */
  move(id: string, to: number): QueueResult {
    const item = this.remove(id);
    if (!item) return { ok: false, error: 'That prompt is no longer in the queue (it was sent or removed).' };
    this.list.splice(Math.max(0, Math.min(to, this.list.length)), 0, item);
    return { ok: true };
  }

  /** Empties the queue; returns what was in it. */
  clear(): QueuedPrompt<A>[] {
    const all = this.list;
    this.list = [];
    this.waitingFor = undefined;
    return all;
  }

  /**
   * A turn ended: after a finished one the queue flows, else it waits and says why. A queue that
   * already waits keeps waiting (a prompt the user sent past it does not release it; Resume does).
   */
  turnEnded(outcome: TurnOutcome): void {
    if (this.list.length === 0) {
      this.waitingFor = undefined;
      return;
    }
    this.waitingFor ??= waitingReason(outcome);
  }

  /** The user said to wait (a queue restored after a reload is not sent by itself). */
  hold(reason: string): void {
    if (this.list.length > 0) this.waitingFor = reason;
  }

  resume(): void {
    this.waitingFor = undefined;
  }

  /** Takes the next prompt to send, unless the queue waits. */
  takeNext(): QueuedPrompt<A> | undefined {
    if (this.waitingFor !== undefined) return undefined;
    return this.list.shift();
  }

  snapshot(): QueueSnapshot<A> {
    return {
      items: this.list.map(({ text, attachments, note }) => ({ text, attachments, ...(note ? { note } : {}) })),
      ...(this.waitingFor !== undefined ? { waiting: this.waitingFor } : {}),
    };
  }

  /** A stored queue; a malformed one yields what of it is readable. */
  static restore<A>(stored: unknown, isAttachment: (value: unknown) => value is A, idPrefix?: string): PromptQueue<A> {
    const queue = new PromptQueue<A>(idPrefix);
    const items = (stored as { items?: unknown } | null)?.items;
    if (!Array.isArray(items)) return queue;
    for (const raw of items.slice(0, MAX_QUEUED)) {
      const item = raw as { text?: unknown; attachments?: unknown; note?: unknown } | null;
      if (typeof item?.text !== 'string' || !item.text.trim()) continue;
      const attachments = Array.isArray(item.attachments) ? item.attachments.filter(isAttachment) : [];
      queue.add(item.text, attachments, typeof item.note === 'string' ? { note: item.note } : {});
    }
    const waiting = (stored as { waiting?: unknown }).waiting;
    if (typeof waiting === 'string') queue.hold(waiting);
    return queue;
  }
}

/**
 * How many sessions' queues the workspace keeps. A session closed with prompts waiting and never
 * opened again would otherwise keep them for good; the ones kept longest untouched go first.
 */
export const MAX_STORED_QUEUES = 50;

/**
 * The stored queues with `key`'s put in as the newest (or taken out when `snapshot` is
 * undefined: sent, emptied or deleted), the oldest dropped past `max`. Newest is last: the
 * workspace state keeps an object's key order.
 */
export function withStoredQueue(stored: Readonly<Record<string, unknown>>, key: string, snapshot: unknown, max = MAX_STORED_QUEUES): Record<string, unknown> {
  const next: Record<string, unknown> = { ...stored };
  delete next[key];
  if (snapshot !== undefined) next[key] = snapshot;
  const keys = Object.keys(next);
  for (const old of keys.slice(0, Math.max(0, keys.length - max))) delete next[old];
  return next;
}

/** Why the queue waits after a turn that ended so, or undefined when the next may go. */
export function waitingReason(outcome: TurnOutcome): string | undefined {
  switch (outcome.kind) {
    case 'stopped':
      if (FLOWING_STOPS.has(outcome.stopReason)) return undefined;
      if (outcome.stopReason === 'cancelled') return 'The turn was cancelled: the queue waits.';
      if (outcome.stopReason === 'refusal') return 'The agent refused the last prompt: the queue waits.';
      return `The turn ended (${outcome.stopReason}): the queue waits.`;
    case 'failed':
      return `The turn failed: ${outcome.message.split('\n')[0] ?? ''} The queue waits.`;
    default:
      return assertNever(outcome, 'turn outcome');
  }
}

/**
 * A queued prompt's attachments that still exist, and the names of those that do not: a file
 * linked when it was queued may be gone when it is sent (the rest goes; the person is told).
 */
export function presentAttachments<A>(attachments: readonly A[], gone: (attachment: A) => string | undefined): { kept: A[]; missing: string[] } {
  const kept: A[] = [];
  const missing: string[] = [];
  for (const attachment of attachments) {
    const name = gone(attachment);
    if (name === undefined) kept.push(attachment);
    else missing.push(name);
  }
  return { kept, missing };
}
