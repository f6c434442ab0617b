import * as path from 'node:path';

/**
 * The display form of a path: relative to the session cwd when it lies inside it, absolute
 * otherwise (a path outside the project is clearer in full than as `../../x`).
 */
export function displayPath(filePath: string, cwd: string): string {
  const key = `${cwd}\0${filePath}`;
  let shown = recentlyShown.get(key);
  if (shown === undefined) {
    shown = computeDisplayPath(filePath, cwd);
    // A session names few files, again and again (a replay: thousands of cards): remember them.
    if (recentlyShown.size >= RECENT_PATHS) recentlyShown.clear();
    recentlyShown.set(key, shown);
  }
  return shown;
}

const RECENT_PATHS = 1024;
const recentlyShown = new Map<string, string>();

function computeDisplayPath(filePath: string, cwd: string): string {
  if (!path.isAbsolute(filePath)) return filePath;
  const relative = path.relative(cwd, filePath);
  if (relative === '') return '.';
  if (relative.startsWith('..') || path.isAbsolute(relative)) return filePath;
  return relative;
}

/**
 * Relativizes a card title by an exact, structured replace of the card's known path (its
 * `locations[0].path` or `diffs[0].path`), never by guessing from the tool name. A title that
 * does not contain the path verbatim is left alone.
 */
export function displayTitle(title: string, knownPath: string | undefined, cwd: string): string {
  if (knownPath === undefined || knownPath === '' || !title.includes(knownPath)) return title;
  const shown = displayPath(knownPath, cwd);
  // A replacer function, so `$` in a path is never read as a replacement pattern.
  return shown === knownPath ? title : title.replace(knownPath, () => shown);
}
