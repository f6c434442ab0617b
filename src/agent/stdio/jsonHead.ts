/**
 * What the first bytes of a JSON-RPC message say about it, when the whole message is too big to
 * parse: the top-level members it starts with, and its `id` if that member is complete there.
 *
 * The members of a JSON object come in any order; clients usually write `jsonrpc`, `id`,
 * `method`, `params`, so the `id` of a huge request is in its first bytes. This reads the head
 * as the start of an object, member after member, skipping nested values without parsing them;
 * it stops where the head ends or stops being JSON, and never guesses past that point.
 */
import type * as acp from '@agentclientprotocol/sdk';

export interface JsonHead {
  /** The top-level member names whose values begin in the head, in order. */
  readonly keys: readonly string[];
  /** The `id` member, when its whole value is in the head. */
  readonly id?: acp.JsonRpcId;
  /** The `method` member, when its whole value is in the head. */
  readonly method?: string;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Reads the head (the decoded first bytes) of what should be one JSON object. */
export function readJsonHead(text: string): JsonHead {
  const keys: string[] = [];
  let id: acp.JsonRpcId | undefined;
  let method: string | undefined;
  const result = (): JsonHead => ({ keys, ...(id !== undefined ? { id } : {}), ...(method !== undefined ? { method } : {}) });

  let at = skipSpace(text, 0);
  if (text[at] !== '{') return result();
  at = skipSpace(text, at + 1);
  while (text[at] === '"') {
    const keyEnd = stringEnd(text, at);
    if (keyEnd === -1) return result();
    const key = parseScalar(text.slice(at, keyEnd));
    if (typeof key !== 'string') return result();
    at = skipSpace(text, keyEnd);
    if (text[at] !== ':') return result();
    at = skipSpace(text, at + 1);
    if (at >= text.length) return result();
    keys.push(key);
    const valueEnd = skipValue(text, at);
    if (valueEnd === -1) return result();
    if (key === 'id' || key === 'method') {
      const value = parseScalar(text.slice(at, valueEnd));
      if (key === 'id' && (typeof value === 'string' || typeof value === 'number' || value === null)) id = value;
      if (key === 'method' && typeof value === 'string') method = value;
    }
    at = skipSpace(text, valueEnd);
    if (text[at] !== ',') return result();
    at = skipSpace(text, at + 1);
  }
  return result();
}

function skipSpace(text: string, at: number): number {
  while (isSpace(text[at])) at++;
  return at;
}

/** The index after the string that starts at `at` (a `"`), or -1 when the head ends inside it. */
function stringEnd(text: string, at: number): number {
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') return i + 1;
  }
  return -1;
}

/**
 * The index after the value that starts at `at`, or -1 when the head ends inside it. A scalar
 * (number, literal) counts as complete only when something follows it: `12` at the very end of
 * the head may be the start of `123`.
 */
function skipValue(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end === -1) return -1;
      if (depth === 0) return end;
      i = end - 1;
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return i; // a scalar ended by its object's `}`
    } else if (depth === 0 && (c === ',' || isSpace(c))) {
      return i;
    }
  }
  return -1;
}

function parseScalar(token: string): unknown {
  try {
    return JSON.parse(token);
  } catch {
    return undefined;
  }
}
