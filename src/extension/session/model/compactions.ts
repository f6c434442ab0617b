import type { CompactionSummaryChunk, CompactionUpdate, ContentBlock, ToolCallStatus } from '@agentclientprotocol/sdk';

/**
 * The context compactions of a session (pure): `compaction_update`s merged by `compactionId` (an
 * agent may repeat a status, as Claude's adapter sends a second, status-only `completed`), the
 * summary patched or grown by `compaction_summary_chunk`s, and the tool call an agent sends
 * instead to a client that did not advertise compaction (read in `agentMeta.ts`).
 */

/** One compaction. Read-only outside this module. */
export interface CompactionRecord {
  readonly id: string;
  /** `in_progress`, `completed`, `failed`, `cancelled`, or a status newer than this client. */
  status: string;
  /** The summary's text (its text blocks; other blocks are left out), '' when none. */
  summary: string;
  /** The summary was longer than `MAX_SUMMARY_CHARS` and was cut there. */
  summaryCut: boolean;
  error: string | undefined;
  /** What the agent reported of the context before and after (the fallback tool call does). */
  tokensBefore: number | undefined;
  tokensAfter: number | undefined;
  /** The turn (or the `session/load` replay) ended with it in progress, and no news of it came since. */
  unfinished: boolean;
  /** How it came: `compaction_update`s, or a tool call standing for one. */
  readonly source: 'compaction' | 'toolCall';
  revision: number;
}

/** Where a compaction sits in the conversation: where it was first seen. */
export interface CompactionEntry {
  readonly type: 'compaction';
  readonly compaction: CompactionRecord;
}

/** Kept per compaction: a summary is a page or two; past this it is cut, with a note. */
export const MAX_SUMMARY_CHARS = 1_000_000;
/** More compactions than this in one session are not shown (an agent minting ids). */
export const MAX_COMPACTIONS = 100;

export interface CompactionApplied {
  /** Seen for the first time: its divider goes here. */
  readonly created?: CompactionEntry;
  readonly changed: boolean;
  readonly warning?: string;
}

const NOTHING: CompactionApplied = { changed: false };

/** What the fallback tool call says, read from its `_meta` and raw output by `agentMeta.ts`. */
export interface CompactionCallReport {
  readonly status: ToolCallStatus | undefined;
  readonly error: string | undefined;
  readonly tokensBefore: number | undefined;
  readonly tokensAfter: number | undefined;
}

export class CompactionStore {
  private readonly byId = new Map<string, CompactionRecord>();

  all(): CompactionRecord[] {
    return [...this.byId.values()];
  }

  get(id: string): CompactionRecord | undefined {
    return this.byId.get(id);
  }

  /** The summary of the newest compaction that has one. */
  lastSummary(): string | undefined {
    const all = this.all();
    for (let i = all.length - 1; i >= 0; i--) if (all[i]?.summary) return all[i]?.summary;
    return undefined;
  }

  /** `compaction_update`: `summary` and `error` patch (absent: unchanged; null or `[]`: cleared). */
  update(update: CompactionUpdate): CompactionApplied {
    const { record, created, refused } = this.recordOf(update.compactionId, 'compaction');
    if (!record) return refused ?? NOTHING;
    let changed = !!created;
    if (record.status !== update.status) {
      record.status = update.status;
      changed = true;
    }
    if (update.summary !== undefined) changed = setSummary(record, update.summary === null ? '' : textOf(update.summary)) || changed;
    if (update.error !== undefined && (update.error ?? undefined) !== record.error) {
      record.error = update.error ?? undefined;
      changed = true;
    }
    return this.settled(record, changed, created);
  }

  /** `compaction_summary_chunk`: appended; a first-seen id is a compaction in progress. */
  appendChunk(chunk: CompactionSummaryChunk): CompactionApplied {
    const { record, created, refused } = this.recordOf(chunk.compactionId, 'compaction');
    if (!record) return refused ?? NOTHING;
    const text = textOf([chunk.content]);
    const changed = setSummary(record, record.summary + text) || !!created;
    return this.settled(record, changed, created);
  }

  /** A message of the tool call that stands for a compaction (its id is the compaction's). */
  toolCall(id: string, report: CompactionCallReport): CompactionApplied {
    const { record, created, refused } = this.recordOf(id, 'toolCall');
    if (!record) return refused ?? NOTHING;
    let changed = !!created;
    const status = report.status === undefined ? undefined : report.status === 'pending' ? 'in_progress' : report.status;
    if (status !== undefined && status !== record.status) {
      record.status = status;
      changed = true;
    }
    for (const key of ['error', 'tokensBefore', 'tokensAfter'] as const) {
      const value = report[key];
      if (value !== undefined && record[key] !== value) {
        (record as Record<typeof key, unknown>)[key] = value;
        changed = true;
      }
    }
    return this.settled(record, changed, created);
  }

  /**
   * The turn ended (or a replay): a compaction still in progress will not complete now, and says so.
   * Returns whether any did.
   */
  endTurn(): boolean {
    let any = false;
    for (const record of this.byId.values()) {
      if (record.status !== 'in_progress' || record.unfinished) continue;
      record.unfinished = true;
      record.revision++;
      any = true;
    }
    return any;
  }

  private recordOf(id: string, source: CompactionRecord['source']): { record?: CompactionRecord; created?: CompactionEntry; refused?: CompactionApplied } {
    const known = this.byId.get(id);
    if (known) return { record: known };
    if (this.byId.size >= MAX_COMPACTIONS) return { refused: { changed: false, warning: `compaction "${id}" ignored: the session already shows ${MAX_COMPACTIONS} compactions` } };
    const record: CompactionRecord = {
      id,
      status: 'in_progress',
      summary: '',
      summaryCut: false,
      error: undefined,
      tokensBefore: undefined,
      tokensAfter: undefined,
      unfinished: false,
      source,
      revision: 0,
    };
    this.byId.set(id, record);
    return { record, created: { type: 'compaction', compaction: record } };
  }

  private settled(record: CompactionRecord, changed: boolean, created: CompactionEntry | undefined): CompactionApplied {
    if (!changed) return NOTHING;
    // News of it after its turn ended: it is going on (or over), not stuck.
    record.unfinished = false;
    if (!created) record.revision++;
    return created ? { created, changed: true } : { changed: true };
  }
}

/** Sets the summary, cut at MAX_SUMMARY_CHARS; whether it changed. */
function setSummary(record: CompactionRecord, text: string): boolean {
  const cut = text.length > MAX_SUMMARY_CHARS;
  const summary = cut ? text.slice(0, MAX_SUMMARY_CHARS) : text;
  if (summary === record.summary && cut === record.summaryCut) return false;
  record.summary = summary;
  record.summaryCut = cut;
  return true;
}

/** The text of a summary's blocks, one paragraph each (a resource counts by its text). */
function textOf(blocks: readonly ContentBlock[]): string {
  const texts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'resource' && 'text' in block.resource) texts.push(block.resource.text);
  }
  return texts.join('\n\n');
}
