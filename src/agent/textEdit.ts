/** Exact string replacement, planned as data so the applied sites can be turned into hunks. */

/** One replaced occurrence, in offsets of the text before and after the edit. */
export interface ReplacementSite {
  beforeOffset: number;
  oldLength: number;
  afterOffset: number;
  newLength: number;
}

export type ReplacementPlan =
  | { ok: true; after: string; sites: ReplacementSite[] }
  | { ok: false; error: string };

/**
 * Replaces `oldString` by `newString` in `text`: the single occurrence, or every non-overlapping
 * occurrence (left to right) when `replaceAll`. Ambiguity is an error rather than a guess.
 */
export function planReplacement(text: string, oldString: string, newString: string, replaceAll: boolean): ReplacementPlan {
  if (oldString === '') return { ok: false, error: 'old_string is empty; to create a file use write.' };
  if (oldString === newString) return { ok: false, error: 'old_string and new_string are identical; nothing would change.' };
  const offsets: number[] = [];
  for (let at = text.indexOf(oldString); at !== -1; at = text.indexOf(oldString, at + oldString.length)) {
    offsets.push(at);
    if (!replaceAll && offsets.length > 1) break;
  }
  if (offsets.length === 0) return { ok: false, error: 'old_string was not found in the file.' };
  if (!replaceAll && offsets.length > 1) {
    const count = countOccurrences(text, oldString);
    return { ok: false, error: `old_string occurs ${count} times; add surrounding context to make it unique, or set replace_all.` };
  }
  const pieces: string[] = [];
  const sites: ReplacementSite[] = [];
  let cursor = 0;
  let shift = 0;
  for (const at of offsets) {
    pieces.push(text.slice(cursor, at), newString);
    sites.push({ beforeOffset: at, oldLength: oldString.length, afterOffset: at + shift, newLength: newString.length });
    shift += newString.length - oldString.length;
    cursor = at + oldString.length;
  }
  pieces.push(text.slice(cursor));
  return { ok: true, after: pieces.join(''), sites };
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}
