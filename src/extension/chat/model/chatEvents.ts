/**
 * The chat items of what a conversation holds besides messages and tool calls (pure): a plan card,
 * a compaction divider, a notice. Each is built from its record and rebuilt when the record's
 * revision moves (the plan replaced in place, the compaction done).
 */
import type { ChatCompactionItem, ChatItem, ChatNoticeItem, ChatPlanItem } from '../../../protocol/chat';
import { assertNever } from '../../../protocol/assertNever';
import type { CompactionRecord } from '../../session/model/compactions';
import type { NoticeRecord } from '../../session/model/notices';
import type { PlanRecord } from '../../session/model/plans';
import type { EventEntry } from '../../session/model/transcript';
import type { SessionState } from '../../session/model/sessionState';
import { subagentItem, subagentRevision, type SubagentLookup } from './chatSubagents';

/** A card shows this much of a markdown plan or a summary; Open (or the API) has the rest. */
export const MAX_CARD_CHARS = 20_000;

/** How a card names a file: relative inside the workspace. */
export type DisplayPath = (path: string) => string;

/** What a subagent's block is built from besides its record: its parent's state and the child sessions. */
export interface SubagentContext {
  readonly parent: SessionState;
  readonly lookup: SubagentLookup | undefined;
}

export function isEventEntry(entry: { readonly type: string }): entry is EventEntry {
  return entry.type === 'plan' || entry.type === 'compaction' || entry.type === 'notice' || entry.type === 'subagent';
}

/** The record's revision: what the webview was sent of it is stale once this moves. */
export function eventRevision(entry: EventEntry, context?: SubagentContext): number {
  switch (entry.type) {
    case 'plan':
      return entry.plan.revision;
    case 'compaction':
      return entry.compaction.revision;
    case 'notice':
      return entry.notice.revision;
    case 'subagent':
      return context?.lookup ? subagentRevision(context.parent, entry.subagent, context.lookup) : entry.subagent.revision;
    default:
      return assertNever(entry, 'event entry');
  }
}

export function eventItem(entry: EventEntry, displayPath: DisplayPath, context?: SubagentContext): ChatItem {
  switch (entry.type) {
    case 'plan':
      return planItem(entry.plan, displayPath);
    case 'compaction':
      return compactionItem(entry.compaction);
    case 'notice':
      return noticeItem(entry.notice);
    case 'subagent':
      return subagentItem(context?.parent as SessionState, entry.subagent, context?.lookup ?? NO_CHILDREN);
    default:
      return assertNever(entry, 'event entry');
  }
}

/** Without a lookup, a block shows what the parent knows (its record) and no rows. */
const NO_CHILDREN: SubagentLookup = { child: () => undefined, callTitle: (call) => call.title };

export function planItem(plan: PlanRecord, displayPath: DisplayPath): ChatPlanItem {
  if (plan.removed) return { kind: 'plan', planId: plan.planId, planType: plan.type, openable: false, removed: true };
  switch (plan.type) {
    case 'markdown': {
      const text = plan.content ?? '';
      const cut = cutAt(text, MAX_CARD_CHARS);
      return {
        kind: 'plan',
        planId: plan.planId,
        planType: 'markdown',
        text: cut,
        ...(cut.length < text.length ? { cut: { shown: cut.length, total: text.length } } : {}),
        ...(plan.path ? { file: displayPath(plan.path) } : {}),
        openable: true,
      };
    }
    case 'file':
      return { kind: 'plan', planId: plan.planId, planType: 'file', file: plan.path ? displayPath(plan.path) : (plan.uri ?? ''), openable: plan.path !== undefined };
    case 'items':
      return { kind: 'plan', planId: plan.planId, planType: 'items', entries: (plan.entries ?? []).map((e) => ({ content: e.content, status: e.status })), openable: false };
    default:
      return assertNever(plan.type, 'plan type');
  }
}

export function compactionItem(compaction: CompactionRecord): ChatCompactionItem {
  const summary = cutAt(compaction.summary, MAX_CARD_CHARS);
  const tokens = tokensLabel(compaction.tokensBefore, compaction.tokensAfter);
  return {
    kind: 'compaction',
    compactionId: compaction.id,
    status: compaction.status,
    ...(summary ? { summary } : {}),
    ...(summary.length < compaction.summary.length || compaction.summaryCut ? { summaryCut: true as const } : {}),
    ...(compaction.error ? { error: compaction.error } : {}),
    ...(tokens ? { tokens } : {}),
    ...(compaction.unfinished && compaction.status === 'in_progress' ? { unfinished: true as const } : {}),
  };
}

export function noticeItem(notice: NoticeRecord): ChatNoticeItem {
  return {
    kind: 'notice',
    severity: notice.severity,
    title: notice.title,
    description: notice.description ?? null,
    ...(notice.count > 1 ? { count: notice.count } : {}),
  };
}

/** About how many bytes an event item adds to a posted message (its text dominates). */
export function eventBytes(item: ChatPlanItem | ChatCompactionItem | ChatNoticeItem): number {
  switch (item.kind) {
    case 'plan':
      return 96 + (item.text?.length ?? 0) + (item.file?.length ?? 0) + (item.entries?.reduce((n, e) => n + e.content.length + 32, 0) ?? 0);
    case 'compaction':
      return 96 + (item.summary?.length ?? 0) + (item.error?.length ?? 0);
    case 'notice':
      return 64 + item.title.length + (item.description?.length ?? 0);
    default:
      return assertNever(item, 'event item');
  }
}

/** "180k → 40k tokens", "180k tokens before", or undefined. */
export function tokensLabel(before: number | undefined, after: number | undefined): string | undefined {
  if (before === undefined) return after === undefined ? undefined : `${compactCount(after)} tokens after`;
  return after === undefined ? `${compactCount(before)} tokens before` : `${compactCount(before)} → ${compactCount(after)} tokens`;
}

/** 1234 → "1.2k", 1234567 → "1.2M". */
export function compactCount(n: number): string {
  if (n >= 1_000_000) return `${trim(n / 1_000_000)}M`;
  if (n >= 1_000) return `${trim(n / 1_000)}k`;
  return String(n);
}

function trim(n: number): string {
  return n >= 100 ? n.toFixed(0) : n.toFixed(1).replace(/\.0$/, '');
}

/** The text's start, cut at a line break near `max` when there is one (never inside a surrogate pair). */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const lineEnd = text.lastIndexOf('\n', max);
  if (lineEnd > max * 0.8) return text.slice(0, lineEnd);
  const end = /[\uD800-\uDBFF]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}
