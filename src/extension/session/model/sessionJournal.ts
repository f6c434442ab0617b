import type { ContentBlock, SessionUpdate } from '@agentclientprotocol/sdk';

/**
 * What a session's state was fed, in order, as this editor recorded it: enough to show the
 * conversation again without the agent replaying it (`session/resume` after an agent restart or a
 * window reload). One JSON object a line in the session's journal file.
 */
export type JournalEntry =
  /** A `session/update` as it was applied (the agent's messages, tool calls, plan, title…). */
  | { readonly k: 'update'; readonly update: SessionUpdate }
  /** The prompt we sent (agents do not echo it during a turn). */
  | { readonly k: 'prompt'; readonly prompt: readonly ContentBlock[] }
  /** A turn (or an agent's replay) ended. */
  | { readonly k: 'end' }
  /** The journal stopped here (too large): what follows is not in it. */
  | { readonly k: 'cut'; readonly reason: string };

/** A journal as read back: whole when every line parsed and nothing was cut. */
export interface ReadJournal {
  readonly entries: JournalEntry[];
  /** Why this journal cannot stand for the conversation (a corrupted line, a cut); undefined when whole. */
  readonly incomplete: string | undefined;
}

export function encodeEntry(entry: JournalEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/**
 * Reads a journal's text. A line that is not an entry (a torn last write, a corrupted file) makes
 * it incomplete rather than failing: the caller then asks the agent for the history instead.
 */
export function parseJournal(text: string): ReadJournal {
  const entries: JournalEntry[] = [];
  let incomplete: string | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      incomplete ??= `line ${i + 1} is not JSON`;
      continue;
    }
    const entry = asEntry(value);
    if (!entry) {
      incomplete ??= `line ${i + 1} is not a journal entry`;
      continue;
    }
    if (entry.k === 'cut') incomplete ??= entry.reason;
    entries.push(entry);
  }
  return { entries, incomplete };
}

function asEntry(value: unknown): JournalEntry | undefined {
  const v = value as { k?: unknown; update?: unknown; prompt?: unknown; reason?: unknown } | null;
  if (typeof v !== 'object' || v === null) return undefined;
  switch (v.k) {
    case 'update':
      return typeof v.update === 'object' && v.update !== null && typeof (v.update as { sessionUpdate?: unknown }).sessionUpdate === 'string'
        ? { k: 'update', update: v.update as SessionUpdate }
        : undefined;
    case 'prompt':
      return Array.isArray(v.prompt) ? { k: 'prompt', prompt: v.prompt as ContentBlock[] } : undefined;
    case 'end':
      return { k: 'end' };
    case 'cut':
      return { k: 'cut', reason: typeof v.reason === 'string' ? v.reason : 'cut' };
    default:
      return undefined;
  }
}

/** The conversation's words in a journal (the user's prompts and the agent's messages, one a line), for search. */
export function journalText(entries: readonly JournalEntry[]): string {
  const messages: string[] = [];
  let last: 'user' | 'agent' | undefined;
  const add = (role: 'user' | 'agent', text: string, chunk: boolean): void => {
    if (chunk && last === role && messages.length > 0) messages[messages.length - 1] += text;
    else messages.push(text);
    last = role;
  };
  for (const entry of entries) {
    if (entry.k === 'prompt') {
      add('user', entry.prompt.map((b) => (b.type === 'text' ? b.text : '')).join(''), false);
      last = undefined;
    } else if (entry.k === 'update') {
      const { update } = entry;
      if ((update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'user_message_chunk') && update.content.type === 'text') {
        add(update.sessionUpdate === 'agent_message_chunk' ? 'agent' : 'user', update.content.text, true);
      } else if (update.sessionUpdate !== 'agent_thought_chunk') {
        last = undefined;
      }
    } else {
      last = undefined;
    }
  }
  return messages.join('\n');
}
