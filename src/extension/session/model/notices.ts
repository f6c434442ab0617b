/**
 * The notices of a session (pure): `notice` updates, and what an agent sends instead to a client
 * that did not advertise notices when `agentMeta.ts` recognises it (Claude's bold status lines).
 * The latest are kept for the API; each also sits in the conversation, a repeat merged into the
 * one just before it.
 */

export interface SessionNotice {
  /** `info`, `warning`, `error`, or a severity newer than this client. */
  readonly severity: string;
  readonly title: string;
  readonly description: string | undefined;
}

/** A notice in the conversation. Read-only outside this module. */
export interface NoticeRecord extends SessionNotice {
  /** How many times it came in a row. */
  count: number;
  /** A `notice` update, or an agent message standing for one. */
  readonly source: 'notice' | 'message';
  revision: number;
}

export interface NoticeEntry {
  readonly type: 'notice';
  readonly notice: NoticeRecord;
}

/** Kept for the API, newest last. */
export const MAX_NOTICES = 50;
/** Notices shown in one conversation; later ones are kept for the API only (an agent in a loop). */
export const MAX_NOTICE_ENTRIES = 200;

export type NoticeAdded =
  | { readonly kind: 'created'; readonly entry: NoticeEntry }
  | { readonly kind: 'repeated' }
  | { readonly kind: 'unshown'; readonly warning?: string };

export class NoticeStore {
  private latest: SessionNotice[] = [];
  private entries = 0;
  private last: NoticeEntry | undefined;

  /** The latest notices, oldest first. */
  get list(): readonly SessionNotice[] {
    return this.latest;
  }

  /**
   * Adds a notice. `lastInConversation` says whether the conversation's last entry is the notice
   * added last: a repeat then counts there instead of adding a row.
   */
  add(notice: SessionNotice, source: NoticeRecord['source'], lastInConversation: (entry: NoticeEntry) => boolean): NoticeAdded {
    this.latest = [...this.latest.slice(1 - MAX_NOTICES), notice];
    const last = this.last;
    if (last && lastInConversation(last) && sameNotice(last.notice, notice)) {
      last.notice.count++;
      last.notice.revision++;
      return { kind: 'repeated' };
    }
    if (this.entries >= MAX_NOTICE_ENTRIES) {
      return { kind: 'unshown', ...(this.entries++ === MAX_NOTICE_ENTRIES ? { warning: `more than ${MAX_NOTICE_ENTRIES} notices: later ones are not shown in the conversation` } : {}) };
    }
    this.entries++;
    const entry: NoticeEntry = { type: 'notice', notice: { ...notice, count: 1, source, revision: 0 } };
    this.last = entry;
    return { kind: 'created', entry };
  }
}

function sameNotice(a: SessionNotice, b: SessionNotice): boolean {
  return a.severity === b.severity && a.title === b.title && a.description === b.description;
}
