/**
 * Addresses of our virtual documents (the sides of a diff card), without `vscode`: encode gives
 * the parts for `vscode.Uri.from(...)`, decode takes any `{scheme, path, query}` (a `vscode.Uri`
 * fits). Keyed by session + tool call + content index, never by path: one file may have many
 * hunks, and a card's content can be replaced after it was shown.
 */

export const DIFF_SCHEME = 'acp-native';

/**
 * `old` / `new`: one diff item's texts. `before`: the whole file as it was before the card's
 * changes to it (the current file with its hunks put back), shown beside the real file.
 */
export type DiffSide = 'old' | 'new' | 'before';

export interface DiffDocKey {
  readonly sessionId: string;
  readonly toolCallId: string;
  /** Index into the tool call's `content` (not among its diffs only). */
  readonly index: number;
  readonly side: DiffSide;
  /**
   * The real file's absolute path: the URI path ends in its file name so VS Code picks the right
   * language mode. Decoding gives it back in URI form (`/C:/x/a.ts` for `C:\x\a.ts`); it is
   * cosmetic, the document's text is found by the other fields.
   */
  readonly path: string;
}

export interface UriParts {
  readonly scheme: string;
  readonly path: string;
  readonly query: string;
}

export type DecodedDiffDoc = { readonly ok: true; readonly value: DiffDocKey } | { readonly ok: false; readonly error: string };

const SIDES: readonly DiffSide[] = ['old', 'new', 'before'];

export function encodeDiffDocUri(key: DiffDocKey): UriParts {
  const query = new URLSearchParams({
    session: key.sessionId,
    call: key.toolCallId,
    index: String(key.index),
    side: key.side,
  });
  return { scheme: DIFF_SCHEME, path: toUriPath(key.path), query: query.toString() };
}

/** Never throws: garbage in gives `{ ok: false, error }` to show as the document's text. */
export function decodeDiffDocUri(parts: UriParts): DecodedDiffDoc {
  if (typeof parts !== 'object' || parts === null) return fail('not a URI');
  if (parts.scheme !== DIFF_SCHEME) return fail(`scheme "${String(parts.scheme)}" is not "${DIFF_SCHEME}"`);
  if (typeof parts.query !== 'string' || typeof parts.path !== 'string') return fail('path or query missing');
  const query = new URLSearchParams(parts.query);
  const sessionId = query.get('session');
  const toolCallId = query.get('call');
  const index = query.get('index');
  const side = query.get('side');
  if (!sessionId) return fail('no session id');
  if (!toolCallId) return fail('no tool call id');
  if (index === null || !/^\d{1,9}$/.test(index)) return fail(`content index "${index ?? ''}" is not a number`);
  if (!SIDES.includes(side as DiffSide)) return fail(`side "${side ?? ''}" is not "old", "new" or "before"`);
  return { ok: true, value: { sessionId, toolCallId, index: Number(index), side: side as DiffSide, path: parts.path } };
}

function fail(error: string): DecodedDiffDoc {
  return { ok: false, error };
}

/**
 * A URI path for a file path: forward slashes, one leading slash (a URI without authority must
 * not start with `//`), a Windows drive kept as its first segment (`C:\x\a.ts` → `/C:/x/a.ts`).
 */
function toUriPath(filePath: string): string {
  const windowsLike = /^[A-Za-z]:[\\/]/.test(filePath) || filePath.startsWith('\\\\');
  const slashed = windowsLike ? filePath.replace(/\\/g, '/') : filePath;
  return '/' + slashed.replace(/^\/+/, '');
}
