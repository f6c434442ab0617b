import { fileURLToPath } from 'node:url';
import type { PlanEntry } from '@agentclientprotocol/sdk';
import type { PlanUpdateContent } from '@agentclientprotocol/sdk/unstable';

/**
 * The plans of a session as the agent names them (`plan_update`, `plan_removed`; pure): the latest
 * version of each `planId`, kept whole (a card shows a part of a long one; Open shows all of it).
 * The legacy checklist (`plan` updates) is not here: it is one unnamed list, `SessionState.plan`.
 */

export type PlanType = PlanUpdateContent['type'];

/** One plan, replaced in place by each `plan_update` of its id. Read-only outside this module. */
export interface PlanRecord {
  readonly planId: string;
  type: PlanType;
  /** A markdown plan's text, whole. */
  content: string | undefined;
  /** A file plan's URI, as sent. */
  uri: string | undefined;
  /** The file on disk: a file plan's `file:` URI, or the `path` a markdown plan may name. */
  path: string | undefined;
  /** An items plan's entries. */
  entries: readonly PlanEntry[] | undefined;
  /** `plan_removed` named it: its card is gone (a later update of the id starts a new one). */
  removed: boolean;
  /** Bumps on every change, so a renderer knows what it showed is stale. */
  revision: number;
}

/** Where a plan sits in the conversation: where its id was first seen. */
export interface PlanCardEntry {
  readonly type: 'plan';
  readonly plan: PlanRecord;
}

/** More plans than this in one session are refused (an agent minting a new id per update). */
export const MAX_PLANS = 100;

export type PlanApplied =
  | { readonly kind: 'created'; readonly entry: PlanCardEntry }
  | { readonly kind: 'changed' | 'unchanged' | 'refused'; readonly warning?: string };

export class PlanStore {
  /** Live plans by id, in the order their cards were created. */
  private readonly byId = new Map<string, PlanRecord>();

  /** The live plans, oldest first. */
  all(): PlanRecord[] {
    return [...this.byId.values()];
  }

  get(planId: string): PlanRecord | undefined {
    return this.byId.get(planId);
  }

  update(plan: PlanUpdateContent): PlanApplied {
    const known = this.byId.get(plan.planId);
    const next = fields(plan);
    if (known) {
      if (known.type === next.type && known.content === next.content && known.uri === next.uri && known.path === next.path && sameEntries(known.entries, next.entries)) {
        return { kind: 'unchanged' };
      }
      Object.assign(known, next);
      known.revision++;
      return { kind: 'changed' };
    }
    if (this.byId.size >= MAX_PLANS) return { kind: 'refused', warning: `plan_update for a new plan "${plan.planId}" ignored: the session already has ${MAX_PLANS} plans` };
    const record: PlanRecord = { planId: plan.planId, ...next, removed: false, revision: 0 };
    this.byId.set(plan.planId, record);
    return { kind: 'created', entry: { type: 'plan', plan: record } };
  }

  /** `plan_removed`: false when no such plan is shown. */
  remove(planId: string): boolean {
    const known = this.byId.get(planId);
    if (!known) return false;
    this.byId.delete(planId);
    known.removed = true;
    known.revision++;
    return true;
  }
}

type PlanFields = Pick<PlanRecord, 'type' | 'content' | 'uri' | 'path' | 'entries'>;

function fields(plan: PlanUpdateContent): PlanFields {
  switch (plan.type) {
    case 'markdown': {
      // The stabilized spec lets a markdown plan name its file; SDK 2.4's types do not have it yet.
      const named = (plan as { path?: unknown }).path;
      return { type: 'markdown', content: plan.content, uri: undefined, path: typeof named === 'string' && named ? named : undefined, entries: undefined };
    }
    case 'file':
      return { type: 'file', content: undefined, uri: plan.uri, path: filePathOf(plan.uri), entries: undefined };
    case 'items':
      return { type: 'items', content: undefined, uri: undefined, path: undefined, entries: plan.entries };
  }
}

/** A `file:` URI's path (or an absolute path sent as the URI); undefined for any other scheme. */
export function filePathOf(uri: string): string | undefined {
  if (uri.startsWith('/')) return uri;
  if (!/^file:/i.test(uri)) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

function sameEntries(a: readonly PlanEntry[] | undefined, b: readonly PlanEntry[] | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((entry, i) => entry.content === b[i]?.content && entry.status === b[i]?.status && entry.priority === b[i]?.priority);
}
