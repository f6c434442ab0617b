/**
 * Fuzzy matching of workspace paths for the chat's `@` mentions (pure).
 *
 * A query matches a path when its characters appear in the path in order (case-insensitive).
 * The score rewards what a person means when they type a few letters: characters in the file
 * name rather than the folders, runs of consecutive characters, characters at the start of a
 * word (after `/`, `.`, `-`, `_`, or a lower→upper change), and short paths. Open editors come
 * first. The ranking keeps only the best `limit` entries in a small sorted buffer, so a query over
 * 100,000 paths allocates almost nothing beyond the answer.
 */

export interface MentionCandidate {
  /** Workspace-relative path with `/` separators; folders end without a slash. */
  readonly path: string;
  readonly isFolder: boolean;
  /** Open in an editor: ranked ahead of everything else that matches. */
  readonly open?: boolean;
}

export interface MentionMatch extends MentionCandidate {
  readonly score: number;
}

const BOUNDARY = new Set(['/', '.', '-', '_', ' ', '\\']);

/**
 * The score of `query` (already lower-cased) against `path`, or -1 when it does not match. An
 * empty query matches everything with a score that favours short paths.
 */
export function fuzzyScore(queryLower: string, path: string): number {
  const nameStart = path.lastIndexOf('/') + 1;
  if (queryLower.length === 0) return 1000 - Math.min(path.length, 999);
  const lower = path.toLowerCase();
  // Prefer a match that starts inside the file name: try there first, then the whole path.
  const inName = matchFrom(queryLower, path, lower, nameStart, nameStart);
  if (inName >= 0) return inName + 1000;
  return matchFrom(queryLower, path, lower, 0, nameStart);
}

function matchFrom(query: string, path: string, lower: string, start: number, nameStart: number): number {
  let score = 0;
  let at = start;
  let previous = -2;
  for (let q = 0; q < query.length; q++) {
    const found = lower.indexOf(query[q] as string, at);
    if (found < 0) return -1;
    let points = 1;
    if (found === previous + 1) points += 5;
    if (found === 0 || found === nameStart || BOUNDARY.has(path[found - 1] as string)) points += 8;
    else if (isUpper(path[found] as string) && !isUpper(path[found - 1] as string)) points += 6;
    if (found >= nameStart) points += 2;
    score += points;
    previous = found;
    at = found + 1;
  }
  // Shorter paths, and a query that covers more of the name, rank higher.
  return score * 10 - Math.min(path.length, 200) / 4;
}

function isUpper(c: string): boolean {
  return c >= 'A' && c <= 'Z';
}

/** The best `limit` matches of `query`, open editors first, then by score, then by path. */
export function rankMentions(query: string, candidates: Iterable<MentionCandidate>, limit = 50): MentionMatch[] {
  const queryLower = query.toLowerCase();
  const best: MentionMatch[] = [];
  for (const candidate of candidates) {
    const raw = fuzzyScore(queryLower, candidate.path);
    if (raw < 0) continue;
    const score = raw + (candidate.open ? 100_000 : 0);
    if (best.length === limit && compare(score, candidate.path, best[best.length - 1] as MentionMatch) >= 0) continue;
    let i = best.length;
    while (i > 0 && compare(score, candidate.path, best[i - 1] as MentionMatch) < 0) i--;
    best.splice(i, 0, { ...candidate, score });
    if (best.length > limit) best.pop();
  }
  return best;
}

function compare(score: number, path: string, other: MentionMatch): number {
  if (score !== other.score) return other.score - score;
  return path < other.path ? -1 : path > other.path ? 1 : 0;
}

/** The folders of a list of file paths (each once), so folders can be mentioned too. */
export function foldersOf(files: Iterable<string>): string[] {
  const folders = new Set<string>();
  for (const file of files) {
    for (let slash = file.indexOf('/'); slash > 0; slash = file.indexOf('/', slash + 1)) folders.add(file.slice(0, slash));
  }
  return [...folders];
}
