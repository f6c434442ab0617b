import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { Disposable } from '../base/lifecycle';
import { errorMessage, type Logger } from '../base/log';
import type { AgentSessions, SessionRecord } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import { assertNever } from '../../protocol/assertNever';
import { PromptQueue, presentAttachments, withStoredQueue, type QueuedPrompt, type TurnOutcome } from './model/promptQueue';
import type { SteerOutcome } from './model/steering';

/** The workspace-state key of the stored queues (by agent and the agent's session id). */
const STORE_KEY = 'acpNative.promptQueues';

/** What a steer or a send came to, as the API says it. */
export type SteerResult = 'injected' | 'queued' | 'sent';

/** A queued prompt as the chat and the API show it. */
export interface QueuedView {
  readonly id: string;
  readonly text: string;
  /** The chips that go with it, by name. */
  readonly attachments: readonly string[];
  readonly note: string | null;
}

export class QueuedPromptRemovedError extends Error {
  constructor() {
    super('The queued prompt was removed before it was sent.');
  }
}

interface Waiter {
  resolve(stopReason: acp.StopReason): void;
  reject(error: unknown): void;
}

type Queue = PromptQueue<acp.ContentBlock>;

/**
 * The prompt queue of each session, and the one way prompts reach a session from the chat and the
 * API: a prompt while a turn runs is queued (never refused), and goes when the turn ends well; a
 * steer goes into the running turn when the agent takes steering. The queue is kept with the
 * session: across switching sessions, an agent restart (same editor id), and a window reload
 * (stored by agent and the agent's session id, restored waiting when that session opens again).
 */
export class PromptQueues extends Disposable {
  private readonly queues = new Map<string, Queue>();
  /** Sessions a send of ours is starting in (before `busy` is set): the next goes to the queue. */
  private readonly sending = new Set<string>();
  /** Turns ended per session: a send during which none ended never began one. */
  private readonly turnsEnded = new Map<string, number>();
  private readonly waiters = new Map<string, Waiter>();
  /** Queued prompts steered into a running turn: they end with it. */
  private readonly riding = new Map<string, Waiter[]>();
  /** A Send now without steering cancelled the turn: after it, this item goes regardless. */
  private readonly sendAfterCancel = new Map<string, string>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<string>());
  /** A session's queue changed (its id). */
  readonly onDidChange = this.changeEmitter.event;
  private nextPrefix = 1;

  constructor(
    private readonly deps: {
      sessions: AgentSessions;
      verbs: SessionVerbs;
      store: vscode.Memento;
      log: Logger;
    },
  ) {
    super();
    this._register(deps.verbs.onTurnEnded((session, outcome) => this.turnEnded(session, outcome)));
    this._register(deps.sessions.onDidChangeSessions(() => this.dropClosed()));
  }

  /** The session's queue as shown (empty for a session without one). */
  view(sessionId: string | undefined): { items: QueuedView[]; waiting: string | null; steering: boolean } {
    const record = sessionId ? this.deps.sessions.session(sessionId) : undefined;
    const queue = record ? this.queueOf(record) : undefined;
    return {
      items: (queue?.items ?? []).map(viewOf),
      waiting: queue?.waiting ?? null,
      steering: record?.connection.canSteer ?? false,
    };
  }

  /** A session is in a turn, or one of ours is starting. */
  isBusy(sessionId: string): boolean {
    return this.sending.has(sessionId) || (this.deps.sessions.session(sessionId)?.busy ?? false);
  }

  /**
   * Sends a prompt (text first, then its attachments) to a session (the active one by default),
   * or queues it when a turn runs there; resolves with that prompt's own stop reason.
   */
  async prompt(blocks: acp.ContentBlock[], sessionId?: string): Promise<acp.StopReason> {
    const starting = this.startingFor(sessionId);
    const target = starting ? await starting : this.targetOf(sessionId);
    if (target && this.isBusy(target.state.sessionId)) return this.enqueue(target, blocks).done;
    return this.send(blocks, target?.state.sessionId ?? sessionId);
  }

  /**
   * Tells the running turn of a session (the active one by default): `injected` when the agent
   * took it; with no turn running (or once it ended meanwhile) it is sent as a prompt (`sent`);
   * without steering, or when the steer failed, it is queued (`queued`, with the reason).
   */
  async steer(blocks: acp.ContentBlock[], sessionId?: string): Promise<SteerResult> {
    const starting = this.startingFor(sessionId);
    const target = starting ? await starting : this.targetOf(sessionId);
    if (!target || !this.isBusy(target.state.sessionId)) {
      this.sendQuietly(blocks, target?.state.sessionId ?? sessionId);
      return 'sent';
    }
    const id = target.state.sessionId;
    if (!target.connection.canSteer) {
      void this.enqueue(target, blocks).done.catch(() => undefined);
      return 'queued';
    }
    const outcome = await this.deps.verbs.steer(id, blocks);
    switch (outcome.kind) {
      case 'injected':
        return 'injected';
      case 'promptRequired':
        // The turn ended before the steer reached it: it is the next prompt.
        if (!this.isBusy(id)) {
          this.sendQuietly(blocks, id);
          return 'sent';
        }
        void this.enqueue(target, blocks, { first: true }).done.catch(() => undefined);
        return 'queued';
      case 'failed': {
        const queued = this.enqueue(target, blocks, { note: `Not steered: ${outcome.reason}.` });
        void queued.done.catch(() => undefined);
        this.takeBackIfTakenLate(id, queued.id, outcome.late);
        return 'queued';
      }
      default:
        return assertNever(outcome, 'steer outcome');
    }
  }

  edit(sessionId: string, id: string, text: string): void {
    const queue = this.existing(sessionId);
    const result = queue.edit(id, text);
    if (!result.ok) throw new Error(result.error);
    this.changed(sessionId);
  }

  remove(sessionId: string, id: string): void {
    const queue = this.existing(sessionId);
    if (!queue.remove(id)) return;
    this.waiters.get(id)?.reject(new QueuedPromptRemovedError());
    this.waiters.delete(id);
    this.changed(sessionId);
  }

  move(sessionId: string, id: string, to: number): void {
    const result = this.existing(sessionId).move(id, to);
    if (!result.ok) throw new Error(result.error);
    this.changed(sessionId);
  }

  clear(sessionId: string): void {
    const queue = this.queues.get(sessionId);
    if (!queue) return;
    for (const item of queue.clear()) {
      this.waiters.get(item.id)?.reject(new QueuedPromptRemovedError());
      this.waiters.delete(item.id);
    }
    this.changed(sessionId);
  }

  /** Lets a waiting queue flow again: the next prompt goes now if no turn runs. */
  resume(sessionId: string): void {
    this.existing(sessionId).resume();
    this.changed(sessionId);
    this.pump(sessionId);
  }

  /**
   * Send now: steer with it when the agent takes steering, else cancel the running turn and send
   * it after; with no turn running it is sent at once (even from a waiting queue).
   */
  async sendNow(sessionId: string, id: string): Promise<SteerResult> {
    const queue = this.existing(sessionId);
    const item = queue.get(id);
    if (!item) throw new Error('That prompt is no longer in the queue (it was sent or removed).');
    const record = this.deps.sessions.session(sessionId);
    if (!this.isBusy(sessionId)) {
      queue.move(id, 0);
      queue.resume();
      this.pump(sessionId);
      return 'sent';
    }
    if (record?.connection.canSteer) {
      queue.remove(id);
      this.changed(sessionId);
      // It rides the running turn from now on: that turn may end before the agent's answer is read.
      const waiter = this.waiters.get(item.id);
      this.waiters.delete(item.id);
      const riding = [...(this.riding.get(sessionId) ?? [])];
      if (waiter) this.riding.set(sessionId, [...riding, waiter]);
      const outcome = await this.deps.verbs.steer(sessionId, blocksOf(item));
      if (outcome.kind === 'injected') return 'injected';
      const stillRiding = waiter && this.riding.get(sessionId)?.includes(waiter);
      if (stillRiding) this.riding.set(sessionId, riding);
      // Back where it was asked to go: first, with the reason when the agent would not take it.
      const again = this.enqueue(record, blocksOf(item), { first: true, ...(outcome.kind === 'failed' ? { note: `Not steered: ${outcome.reason}.` } : {}) });
      if (waiter) again.done.then(waiter.resolve, waiter.reject);
      else void again.done.catch(() => undefined);
      if (outcome.kind === 'failed') this.takeBackIfTakenLate(sessionId, again.id, outcome.late);
      if (outcome.kind === 'promptRequired') this.pump(sessionId);
      return outcome.kind === 'promptRequired' && !this.isBusy(sessionId) ? 'sent' : 'queued';
    }
    queue.move(id, 0);
    this.sendAfterCancel.set(sessionId, id);
    this.changed(sessionId);
    await this.deps.verbs.cancel(sessionId);
    return 'sent';
  }

  /** The queued prompts of a session (the active one by default). */
  list(sessionId?: string): QueuedView[] {
    const record = this.targetOf(sessionId);
    return record ? this.view(record.state.sessionId).items : [];
  }

  /** The session a queue item is in. */
  sessionOfItem(id: string): string | undefined {
    for (const [sessionId, queue] of this.queues) if (queue.get(id)) return sessionId;
    return undefined;
  }

  override dispose(): void {
    for (const waiter of this.waiters.values()) waiter.reject(new Error('ACP Native stopped before the queued prompt was sent.'));
    this.waiters.clear();
    super.dispose();
  }

  // ── Inside ────────────────────────────────────────────────────────────────

  /**
   * With no session named, while the new session the user asked for starts: that session once up
   * (else the active one). A prompt typed meanwhile is for it.
   */
  private startingFor(sessionId: string | undefined): Promise<SessionRecord | undefined> | undefined {
    const starting = sessionId === undefined ? this.deps.verbs.startingSession : undefined;
    return starting?.then((record) => record ?? this.deps.sessions.active);
  }

  /** The session named, else the active one: decided now, so a prompt queues in the order sent. */
  private targetOf(sessionId: string | undefined): SessionRecord | undefined {
    if (sessionId === undefined) return this.deps.sessions.active;
    const record = this.deps.sessions.session(sessionId);
    if (!record) throw new Error(`There is no open session ${sessionId}.`);
    return record;
  }

  private existing(sessionId: string): Queue {
    const record = this.deps.sessions.session(sessionId);
    const queue = record && this.queueOf(record);
    if (!queue) throw new Error(`There is no open session ${sessionId}.`);
    return queue;
  }

  /** The session's queue; one stored from an earlier window comes back waiting. */
  private queueOf(record: SessionRecord): Queue {
    const sessionId = record.state.sessionId;
    let queue = this.queues.get(sessionId);
    if (queue) return queue;
    const stored = this.stored()[storeKey(record)];
    queue = PromptQueue.restore<acp.ContentBlock>(stored, isContentBlock, `q${this.nextPrefix++}-`);
    // A queue from before the reload waits: the conversation it was written for may have moved on.
    if (queue.size > 0 && !queue.waiting) queue.hold('Kept from before the window was reloaded: the queue waits.');
    this.queues.set(sessionId, queue);
    return queue;
  }

  private enqueue(record: SessionRecord, blocks: acp.ContentBlock[], options: { first?: boolean; note?: string } = {}): { id?: string; done: Promise<acp.StopReason> } {
    const [head, ...rest] = blocks;
    const text = head?.type === 'text' ? head.text : '';
    const attachments = head?.type === 'text' ? rest : blocks;
    const queue = this.queueOf(record);
    const added = queue.add(text || ' ', attachments, options);
    if ('error' in added) return { done: Promise.reject(new Error(added.error)) };
    const done = new Promise<acp.StopReason>((resolve, reject) => this.waiters.set(added.id, { resolve, reject }));
    this.changed(record.state.sessionId);
    // A turn that ended while this was being queued (our own send's gap) is caught up here.
    this.pump(record.state.sessionId);
    return { id: added.id, done };
  }

  /**
   * A steer queued for want of an answer that the agent then takes (`late` comes `injected`): the
   * agent has it, so its queued copy goes, unsent, unless the queue sent it meanwhile.
   */
  private takeBackIfTakenLate(sessionId: string, itemId: string | undefined, late: Promise<SteerOutcome> | undefined): void {
    if (itemId === undefined || !late) return;
    void late.then((answer) => {
      if (answer.kind === 'injected') this.takeBack(sessionId, itemId);
    });
  }

  /** A queued prompt the agent got another way (a steer it took late): out of the queue, unsent. */
  private takeBack(sessionId: string, itemId: string): void {
    const queue = this.queues.get(sessionId);
    if (!queue?.remove(itemId)) return;
    // Its answer is the running turn's now, as a steer taken in time.
    const waiter = this.waiters.get(itemId);
    this.waiters.delete(itemId);
    if (waiter) this.riding.set(sessionId, [...(this.riding.get(sessionId) ?? []), waiter]);
    this.deps.log.info(`Session ${sessionId}: the agent took a steer late; its queued copy is not sent.`);
    this.changed(sessionId);
  }

  private sendQuietly(blocks: acp.ContentBlock[], sessionId: string | undefined): void {
    this.send(blocks, sessionId).catch((error: unknown) => {
      this.deps.log.error(`Prompt failed: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(`ACP: ${errorMessage(error)}`);
    });
  }

  /** `notSent` hears of a failure before the next queued prompt is taken. */
  private async send(blocks: acp.ContentBlock[], sessionId: string | undefined, notSent?: (error: unknown) => void): Promise<acp.StopReason> {
    if (sessionId !== undefined) this.sending.add(sessionId);
    try {
      return await this.deps.verbs.prompt(blocks, sessionId);
    } catch (error) {
      notSent?.(error);
      throw error;
    } finally {
      if (sessionId !== undefined) {
        this.sending.delete(sessionId);
        this.pump(sessionId);
      }
    }
  }

  private turnEnded(session: SessionRecord, outcome: TurnOutcome): void {
    const sessionId = session.state.sessionId;
    this.turnsEnded.set(sessionId, (this.turnsEnded.get(sessionId) ?? 0) + 1);
    for (const waiter of this.riding.get(sessionId) ?? []) {
      if (outcome.kind === 'stopped') waiter.resolve(outcome.stopReason as acp.StopReason);
      else waiter.reject(new Error(outcome.message));
    }
    this.riding.delete(sessionId);
    const queue = this.queues.get(sessionId);
    if (!queue) return;
    const after = this.sendAfterCancel.get(sessionId);
    this.sendAfterCancel.delete(sessionId);
    if (after && queue.get(after)) {
      queue.move(after, 0);
      queue.resume();
    } else {
      queue.turnEnded(outcome);
    }
    this.changed(sessionId);
    this.pump(sessionId);
  }

  /** Sends the next queued prompt when no turn runs and the queue flows. */
  private pump(sessionId: string): void {
    const queue = this.queues.get(sessionId);
    if (!queue || this.isBusy(sessionId) || !this.deps.sessions.session(sessionId)) return;
    const item = queue.takeNext();
    if (!item) return;
    this.changed(sessionId);
    const waiter = this.waiters.get(item.id);
    this.waiters.delete(item.id);
    const { kept, missing } = presentAttachments(item.attachments, goneFile);
    if (missing.length > 0) {
      void vscode.window.showWarningMessage(`ACP: ${missing.join(', ')} no longer ${missing.length === 1 ? 'exists' : 'exist'}; the queued prompt was sent without ${missing.length === 1 ? 'it' : 'them'}.`);
    }
    const endsBefore = this.turnsEnded.get(sessionId) ?? 0;
    let putBack = false;
    // Failed before its turn began (the agent could not be restarted, the session not reloaded):
    // the agent never saw it, so it goes back first and the queue waits, rather than the next
    // prompts being taken and failing the same way one by one.
    const notSent = (error: unknown) => {
      if ((this.turnsEnded.get(sessionId) ?? 0) !== endsBefore || !this.deps.sessions.session(sessionId)) return;
      putBack = true;
      queue.putBack(item);
      queue.hold(`Not sent: ${errorMessage(error)}`);
      if (waiter) this.waiters.set(item.id, waiter);
      this.changed(sessionId);
    };
    this.send(blocksOf({ ...item, attachments: kept }), sessionId, notSent).then(
      (stopReason) => waiter?.resolve(stopReason),
      (error: unknown) => {
        this.deps.log.error(`Queued prompt ${putBack ? 'not sent, kept waiting' : 'failed'}: ${errorMessage(error)}`);
        if (waiter && !putBack) waiter.reject(error);
        else void vscode.window.showErrorMessage(`ACP: the queued prompt ${putBack ? 'was not sent and waits in the queue' : 'failed'}: ${errorMessage(error)}`);
      },
    );
  }

  /**
   * Forgets the queue kept for a session of an agent (Delete): an agent that keeps its own copy
   * would otherwise bring the deleted session's prompts back when it is opened again.
   */
  async forgetStored(agentKey: string, agentSessionId: string): Promise<void> {
    const stored = this.stored();
    const key = storeKeyOf(agentKey, agentSessionId);
    if (!(key in stored)) return;
    await this.deps.store.update(STORE_KEY, withStoredQueue(stored, key, undefined));
  }

  private dropClosed(): void {
    for (const [sessionId, queue] of this.queues) {
      if (this.deps.sessions.session(sessionId)) continue;
      this.queues.delete(sessionId);
      for (const item of queue.items) {
        this.waiters.get(item.id)?.reject(new Error('The session was closed before the queued prompt was sent.'));
        this.waiters.delete(item.id);
      }
    }
  }

  private changed(sessionId: string): void {
    const record = this.deps.sessions.session(sessionId);
    const queue = this.queues.get(sessionId);
    if (record && queue) {
      const all = withStoredQueue(this.stored(), storeKey(record), queue.size === 0 ? undefined : queue.snapshot());
      void Promise.resolve(this.deps.store.update(STORE_KEY, all)).catch((error: unknown) => this.deps.log.warn(`Could not keep the prompt queue: ${errorMessage(error)}`));
    }
    this.changeEmitter.fire(sessionId);
  }

  private stored(): Record<string, unknown> {
    const value = this.deps.store.get<unknown>(STORE_KEY);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  }
}

function storeKey(record: SessionRecord): string {
  return storeKeyOf(record.agentKey, record.agentSessionId);
}

function storeKeyOf(agentKey: string, agentSessionId: string): string {
  return `${agentKey}\u0000${agentSessionId}`;
}

function blocksOf(item: QueuedPrompt<acp.ContentBlock>): acp.ContentBlock[] {
  return [{ type: 'text', text: item.text }, ...item.attachments];
}

function viewOf(item: QueuedPrompt<acp.ContentBlock>): QueuedView {
  return { id: item.id, text: item.text, attachments: item.attachments.map(attachmentName), note: item.note ?? null };
}

function attachmentName(block: acp.ContentBlock): string {
  switch (block.type) {
    case 'resource_link':
      return block.name;
    case 'resource':
      return block.resource.uri.replace(/^.*\//, '');
    case 'image':
      return 'image';
    case 'audio':
      return 'audio';
    case 'text':
      return /^\n?([^\n:]+):/.exec(block.text)?.[1] ?? 'text';
    default:
      return 'attachment';
  }
}

function isContentBlock(value: unknown): value is acp.ContentBlock {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}


/** The name of a linked local file that no longer exists (other attachments carry their content). */
function goneFile(block: acp.ContentBlock): string | undefined {
  if (block.type !== 'resource_link' || !block.uri.startsWith('file:')) return undefined;
  try {
    return fs.existsSync(vscode.Uri.parse(block.uri).fsPath) ? undefined : block.name;
  } catch {
    return undefined;
  }
}
