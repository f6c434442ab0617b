import type { CompactionSummaryChunk, CompactionUpdate, ContentChunk, Notice, ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import type { PlanRemoved, PlanUpdate } from '@agentclientprotocol/sdk/unstable';
import { compactionCallReport, isCompactionCall, noticeOfMessage } from './agentMeta';
import type { PendingChanges } from './changes';
import { CompactionStore, type CompactionApplied, type CompactionRecord } from './compactions';
import { NoticeStore, type SessionNotice } from './notices';
import { PlanStore, type PlanRecord } from './plans';
import type { Transcript } from './transcript';

/** The plan operations (`/unstable` in SDK 2.4; the client reads them once it advertises `plan`). */
export type PlanOperation = (PlanUpdate & { sessionUpdate: 'plan_update' }) | (PlanRemoved & { sessionUpdate: 'plan_removed' });

/** The updates this part of a session takes. */
export type SessionEventUpdate =
  | PlanOperation
  | (CompactionUpdate & { sessionUpdate: 'compaction_update' })
  | (CompactionSummaryChunk & { sessionUpdate: 'compaction_summary_chunk' })
  | (Notice & { sessionUpdate: 'notice' });

/** What renderers read of the events (they must not change what they get). */
export interface SessionEventsView {
  /** The live plans, in the order they were first seen (removed ones are gone). */
  readonly plans: readonly PlanRecord[];
  readonly compactions: readonly CompactionRecord[];
  /** The newest compaction summary, if any compaction sent one. */
  readonly lastSummary: string | undefined;
}

/**
 * What a session shows besides messages and tool calls (pure): its named plans, its compactions
 * and its notices, each kept in its store and placed in the conversation where it was first seen.
 * `SessionState` routes the updates here and owns the transcript and the change flags it is given.
 */
export class SessionEvents implements SessionEventsView {
  private readonly planStore = new PlanStore();
  private readonly compactionStore = new CompactionStore();
  private readonly noticeStore = new NoticeStore();
  /** Ids of the tool calls that stand for a compaction (their later messages may not say so). */
  private readonly compactionCalls = new Set<string>();

  constructor(
    private readonly deps: {
      transcript: Transcript;
      pending: () => PendingChanges;
      warn: (message: string) => void;
    },
  ) {}

  /** The live plans, in the order they were first seen. */
  get plans(): readonly PlanRecord[] {
    return this.planStore.all();
  }

  get compactions(): readonly CompactionRecord[] {
    return this.compactionStore.all();
  }

  /** The newest compaction summary, if any compaction sent one. */
  get lastSummary(): string | undefined {
    return this.compactionStore.lastSummary();
  }

  /** The latest notices, oldest first. */
  get notices(): readonly SessionNotice[] {
    return this.noticeStore.list;
  }

  apply(update: SessionEventUpdate): void {
    switch (update.sessionUpdate) {
      case 'plan_update':
        return this.updatePlan(update);
      case 'plan_removed':
        if (this.planStore.remove(update.planId)) this.changed('plans');
        else this.deps.warn(`plan_removed for unknown plan "${update.planId}" ignored`);
        return;
      case 'compaction_update':
        return this.compacted(this.compactionStore.update(update));
      case 'compaction_summary_chunk':
        return this.compacted(this.compactionStore.appendChunk(update));
      case 'notice':
        return this.addNotice({ severity: update.severity, title: update.title, description: update.description ?? undefined }, 'notice');
    }
  }

  /** Takes a tool-call message that stands for a compaction (then it is no tool call); false for any other. */
  takeToolCall(message: ToolCall | ToolCallUpdate): boolean {
    const id = message.toolCallId;
    if (!this.compactionCalls.has(id)) {
      if (!isCompactionCall(message._meta)) return false;
      this.compactionCalls.add(id);
    }
    this.compacted(this.compactionStore.toolCall(id, compactionCallReport(message)));
    return true;
  }

  /** Takes an agent message that stands for a notice; false for any other (the answer). */
  takeAgentChunk(chunk: ContentChunk): boolean {
    const notice = noticeOfMessage(chunk._meta, chunk.content);
    if (!notice) return false;
    this.addNotice(notice, 'message');
    return true;
  }

  /** A turn (or a replay) ended: a compaction still in progress says it never completed. */
  endTurn(): void {
    if (this.compactionStore.endTurn()) this.changed('compactions');
  }

  private updatePlan(update: PlanUpdate): void {
    const applied = this.planStore.update(update.plan);
    switch (applied.kind) {
      case 'created':
        this.deps.transcript.addEvent(applied.entry);
        return this.changed('plans');
      case 'changed':
        return this.changed('plans');
      case 'unchanged':
        return;
      case 'refused':
        if (applied.warning) this.deps.warn(applied.warning);
        return;
    }
  }

  private compacted(applied: CompactionApplied): void {
    if (applied.warning) this.deps.warn(applied.warning);
    if (applied.created) this.deps.transcript.addEvent(applied.created);
    if (applied.changed) this.changed('compactions');
  }

  private addNotice(notice: SessionNotice, source: 'notice' | 'message'): void {
    const added = this.noticeStore.add(notice, source, (entry) => this.deps.transcript.isLast(entry));
    if (added.kind === 'created') this.deps.transcript.addEvent(added.entry);
    if (added.kind === 'unshown' && added.warning) this.deps.warn(added.warning);
    this.changed('notices');
  }

  /** Flags what changed; the conversation shows every event, so it changed too. */
  private changed(what: 'plans' | 'compactions' | 'notices'): void {
    const pending = this.deps.pending();
    pending[what] = true;
    pending.transcript = true;
  }
}
