/**
 * Session History's search (pure): the picker filters titles itself (VS Code's quick pick); for a
 * session whose recorded conversation holds the query, the item's detail line becomes the words
 * around it, so the quick pick's own `matchOnDetail` keeps it and shows why.
 */

/** How much of the conversation the detail line shows around a match. */
export const SNIPPET_BEFORE = 30;
export const SNIPPET_CHARS = 100;

/** The query as matched: trimmed, its whitespace one space, lower case; empty means no search. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}

/**
 * The words around the first place the conversation holds the query (case and line breaks
 * ignored), on one line, with `…` where it was cut; undefined when it does not hold it or the
 * query is empty.
 */
export function matchSnippet(query: string, text: string | undefined): string | undefined {
  const wanted = normalizeQuery(query);
  if (!wanted || !text) return undefined;
  const flat = text.replace(/\s+/g, ' ');
  const at = flat.toLowerCase().indexOf(wanted);
  if (at < 0) return undefined;
  const start = Math.max(0, at - SNIPPET_BEFORE);
  // The match always whole, even when longer than the snippet.
  const end = Math.min(flat.length, Math.max(start + SNIPPET_CHARS, at + wanted.length));
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}

export interface HistoryEntry {
  readonly sessionId: string;
  readonly title: string;
  /** The recorded conversation's words, when there is a record. */
  readonly text: string | undefined;
}

/**
 * The detail line of each entry for a query: the snippet where its conversation matches, none
 * otherwise (its title may still match: the quick pick decides that). Same order as `entries`.
 */
export function historyDetails(query: string, entries: readonly HistoryEntry[]): (string | undefined)[] {
  return entries.map((e) => matchSnippet(query, e.text));
}

/** What Session History calls a session nobody titled and nobody prompted yet. */
export const UNTITLED_SESSION = 'Untitled session';

/**
 * A session's title in the list: the agent's, else the one recorded here (its first prompt), else
 * "Untitled session" (an agent may list a session it started before any prompt; its id means
 * nothing to the user, and the date beside it tells such sessions apart).
 */
export function historyTitle(agentTitle: string | null | undefined, recordedTitle: string | undefined): string {
  return agentTitle?.trim() || recordedTitle?.trim() || UNTITLED_SESSION;
}
