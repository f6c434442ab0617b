import type { ToolCallState } from '../../session/model/toolCalls';

/**
 * How a card names files (pure): relative to the workspace folder that holds them, prefixed with
 * the folder's name in a multi-root workspace; outside every folder, absolute with the home folder
 * shortened to `~`. Tree labels, editor titles and terminal names all go through here so a file
 * reads the same everywhere.
 *
 * Paths are handled as text with the separator of the platform the folders live on (`ctx.sep`),
 * not with `node:path`, so the rules are the same whatever OS runs the tests.
 */

export interface TitleContext {
  readonly folders: readonly { readonly name: string; readonly path: string }[];
  readonly home?: string;
  /** Separator of the workspace's platform; default `/`. With `\`, `/` is accepted too and case is ignored. */
  readonly sep?: '/' | '\\';
  /**
   * The agent's working directory (the session's cwd, the first folder): agents such as Claude's
   * adapter title calls with paths relative to it ("Edit src/a.ts"), which a multi-root workspace
   * must still prefix with the folder ("Edit app/src/a.ts").
   */
  readonly cwd?: string;
}

interface ParsedPath {
  /** `/`, a drive `C:`, a UNC share `\\server\share`, `\` (current drive), or '' for a relative path. */
  readonly root: string;
  /** Normalized: no empty, `.` or (for an absolute path) `..` segments. */
  readonly segments: readonly string[];
}

function parsePath(raw: string, sep: '/' | '\\'): ParsedPath {
  const windows = sep === '\\';
  let root = '';
  let rest = raw;
  if (windows) {
    const unc = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/.exec(raw);
    const drive = /^[A-Za-z]:/.exec(raw);
    if (unc) [root, rest] = [`\\\\${unc[1]}\\${unc[2]}`, raw.slice(unc[0].length)];
    else if (drive) [root, rest] = [drive[0], raw.slice(2)];
    else if (/^[\\/]/.test(raw)) root = '\\';
  } else if (raw.startsWith('/')) {
    root = '/';
  }
  const segments: string[] = [];
  for (const segment of rest.split(windows ? /[\\/]/ : '/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && (root || (segments.length > 0 && segments[segments.length - 1] !== '..'))) segments.pop();
    else segments.push(segment);
  }
  return { root, segments };
}

function formatPath(path: ParsedPath, sep: '/' | '\\'): string {
  const body = path.segments.join(sep);
  if (path.root === '' || path.root === '/' || path.root === '\\') return path.root + body;
  // A drive or share root is followed by a separator: `C:\`, `C:\x`.
  return path.root + sep + body;
}

/** The rest of `path` below `base`, or undefined when `path` is not `base` or inside it. */
function below(path: ParsedPath, base: ParsedPath, sep: '/' | '\\'): readonly string[] | undefined {
  const same = sep === '\\' ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase() : (a: string, b: string) => a === b;
  if (!base.root || !same(path.root, base.root) || base.segments.length > path.segments.length) return undefined;
  if (!base.segments.every((segment, i) => same(segment, path.segments[i]))) return undefined;
  return path.segments.slice(base.segments.length);
}

/** A context's folders, cwd and home, parsed once per context rather than once per path named. */
interface ParsedContext {
  readonly sep: '/' | '\\';
  readonly folders: readonly { readonly name: string; readonly path: ParsedPath }[];
  readonly cwd: ParsedPath | undefined;
  readonly home: ParsedPath | undefined;
  /** What a title may hold of a path and what it shows instead, by path (see `pathForms`). */
  readonly forms: Map<string, PathForms | null>;
}

/**
 * An absolute path as a title may hold it (as the agent wrote it, normalized, relative to the
 * agent's cwd) and its display path.
 */
interface PathForms {
  readonly texts: readonly string[];
  readonly display: string;
}

/**
 * Paths whose forms a context keeps: a session names the same files again and again (a storm of
 * 4,000 calls names ~1,300), and working the forms out (parsing, joining, comparing with every
 * folder) was most of a title's cost and most of what the Chat view allocated per row. Past this
 * many the cache starts over.
 */
const MAX_CACHED_PATHS = 4096;

/**
 * Parsed contexts, by context. Titles are computed by the thousand (a loaded session's rows, a
 * tree refresh) with one context, and parsing its folders again for every path was most of the cost.
 */
const parsedContexts = new WeakMap<TitleContext, ParsedContext>();

function parsedContext(ctx: TitleContext): ParsedContext {
  let parsed = parsedContexts.get(ctx);
  if (!parsed) {
    const sep = ctx.sep ?? '/';
    parsed = {
      sep,
      folders: ctx.folders.map((folder) => ({ name: folder.name, path: parsePath(folder.path, sep) })),
      cwd: ctx.cwd ? parsePath(ctx.cwd, sep) : undefined,
      home: ctx.home ? parsePath(ctx.home, sep) : undefined,
      forms: new Map(),
    };
    parsedContexts.set(ctx, parsed);
  }
  return parsed;
}

/**
 * `src/a.ts` (one folder), `proj/src/a.ts` (several folders; the deepest folder that holds the
 * path wins), `~/notes.md` or `/etc/hosts` (outside). The folder itself is named by its folder
 * name, which reads better in a title than `.` ("List proj"). A relative path is returned as is.
 */
export function displayPath(absPath: string, ctx: TitleContext): string {
  const context = parsedContext(ctx);
  const path = parsePath(absPath, context.sep);
  return path.root ? displayParsed(path, context) : absPath;
}

function displayParsed(path: ParsedPath, ctx: ParsedContext): string {
  const sep = ctx.sep;
  let best: { name: string; rest: readonly string[] } | undefined;
  for (const folder of ctx.folders) {
    const rest = below(path, folder.path, sep);
    if (rest && (!best || rest.length < best.rest.length)) best = { name: folder.name, rest };
  }
  if (best) {
    if (best.rest.length === 0) return best.name;
    return (ctx.folders.length > 1 ? [best.name, ...best.rest] : best.rest).join(sep);
  }
  const home = ctx.home;
  // A home at the root would turn every path into `~/…`: not a home worth shortening.
  const underHome = home && home.segments.length > 0 ? below(path, home, sep) : undefined;
  if (underHome) return ['~', ...underHome].join(sep);
  return formatPath(path, sep);
}

/** Characters that continue a path: a match followed or preceded by one is part of a longer path. */
const PATH_CHAR = /[\p{L}\p{N}_\-.~@+%\\/]/u;

/**
 * The title with every absolute occurrence of the card's paths replaced by its display path
 * ("Edit /home/u/proj/src/a.ts" → "Edit src/a.ts"). Only whole paths are replaced: `/p/a.ts`
 * inside `/p/a.tsx` or `/x/p/a.ts` stays; a trailing separator or a sentence's final dot may
 * follow. A path written relative to `ctx.cwd` is replaced too when its display differs (a
 * multi-root workspace: "Edit src/a.ts" → "Edit app/src/a.ts"). Titles that name none of the
 * paths come back unchanged.
 */
export function displayTitle(title: string, paths: readonly string[], ctx: TitleContext): string {
  if (paths.length === 0) return title;
  const context = parsedContext(ctx);
  const sep = context.sep;
  // Only the forms the title holds: the others could match nothing.
  const candidates: { text: string; display: string }[] = [];
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i] as string;
    if (paths.indexOf(path) < i) continue;
    const forms = pathForms(path, context);
    if (!forms) continue;
    for (const text of forms.texts) if (title.includes(text)) candidates.push({ text, display: forms.display });
  }
  if (candidates.length === 0) return title;
  // Longest first: a path claims its span before a shorter one could match inside it.
  candidates.sort((a, b) => b.text.length - a.text.length);

  const matches: { start: number; end: number; display: string }[] = [];
  for (const { text, display } of candidates) {
    for (let start = title.indexOf(text); start !== -1; start = title.indexOf(text, start + 1)) {
      let end = start + text.length;
      if (start > 0 && PATH_CHAR.test(title[start - 1])) continue;
      if (isSeparator(title[end], sep) && endsPath(title, end + 1)) end++;
      if (!endsPath(title, end)) continue;
      if (matches.some((m) => start < m.end && m.start < end)) continue;
      matches.push({ start, end, display });
    }
  }
  if (matches.length === 0) return title;
  matches.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const match of matches) {
    out += title.slice(at, match.start) + match.display;
    at = match.end;
  }
  return out + title.slice(at);
}

/** A path's forms in a title and its display path (worked out once per context); null for a relative path. */
function pathForms(path: string, context: ParsedContext): PathForms | null {
  const known = context.forms.get(path);
  if (known !== undefined) return known;
  const parsed = parsePath(path, context.sep);
  let forms: PathForms | null = null;
  if (parsed.root) {
    const display = displayParsed(parsed, context);
    // The path as the agent wrote it, and as normalized (no trailing slash, no `.`/`..`).
    const texts = [...new Set([path, formatPath(parsed, context.sep)])];
    for (const text of relativeForms(parsed, context)) if (text !== display) texts.push(text);
    forms = { texts, display };
  }
  if (context.forms.size >= MAX_CACHED_PATHS) context.forms.clear();
  context.forms.set(path, forms);
  return forms;
}

/** How an agent running in `ctx.cwd` may write the path relative to it: `src/a.ts` (and `src\a.ts`). */
function relativeForms(path: ParsedPath, ctx: ParsedContext): string[] {
  const sep = ctx.sep;
  if (!ctx.cwd) return [];
  const rest = below(path, ctx.cwd, sep);
  if (!rest || rest.length === 0) return [];
  return [...new Set([rest.join(sep), rest.join('/')])];
}

function isSeparator(char: string | undefined, sep: '/' | '\\'): boolean {
  return char === '/' || (sep === '\\' && char === '\\');
}

/** Whether a path may end before `index`: end of text, a non-path character, or a final dot. */
function endsPath(title: string, index: number): boolean {
  const next = title[index];
  if (next === undefined || !PATH_CHAR.test(next)) return true;
  return next === '.' && (title[index + 1] === undefined || !PATH_CHAR.test(title[index + 1]));
}

/** A card's known paths: diff paths first, then locations; each once. */
export function cardPaths(call: ToolCallState): string[] {
  // A call names a path or two: a list's own check is cheaper than a Set (this runs for every row a view builds).
  const paths: string[] = [];
  for (const item of call.content) if (item.type === 'diff' && !paths.includes(item.path)) paths.push(item.path);
  for (const location of call.locations) if (!paths.includes(location.path)) paths.push(location.path);
  return paths;
}
