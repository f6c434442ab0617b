import type { ToolCallContent, ToolCallLocation } from '@agentclientprotocol/sdk';

/**
 * Defensive readers for tool-call fields. The SDK validates messages, but a third-party agent's
 * payload is still untrusted input: renderers switch exhaustively on `content[].type`, so only the
 * closed union may reach them. What is dropped is reported, never thrown.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface Sanitized<T> {
  readonly items: T[];
  /** Human-readable reasons for each dropped item. */
  readonly dropped: readonly string[];
}

/** Shared by every clean result: a tool-call update is sanitized thousands of times a second. */
const NOTHING_DROPPED: readonly string[] = Object.freeze([]);

/**
 * The sanitizers hand back the message's own array when every item is valid (nearly always): the
 * call keeps it for its lifetime, and a copy built by `push` reserves room for 17 items. The
 * message is not used after it is applied, and nothing mutates a call's arrays (they are replaced).
 */
export function sanitizeContent(value: unknown): Sanitized<ToolCallContent> {
  if (!Array.isArray(value)) return { items: [], dropped: value === undefined ? NOTHING_DROPPED : ['content is not an array'] };
  if (value.every(isValidContent)) return { items: value as ToolCallContent[], dropped: NOTHING_DROPPED };
  const items: ToolCallContent[] = [];
  let dropped: string[] | undefined;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (isValidContent(item)) items.push(item);
    else (dropped ??= []).push(`content[${index}] is not a known tool-call content item (${describe(item)})`);
  }
  return { items, dropped: dropped ?? NOTHING_DROPPED };
}

function isValidContent(item: unknown): item is ToolCallContent {
  if (!isRecord(item)) return false;
  switch (item.type) {
    case 'content':
      return isRecord(item.content) && typeof item.content.type === 'string';
    case 'diff':
      return (
        typeof item.path === 'string' &&
        typeof item.newText === 'string' &&
        (item.oldText === undefined || item.oldText === null || typeof item.oldText === 'string')
      );
    case 'terminal':
      return typeof item.terminalId === 'string';
    default:
      return false;
  }
}

export function sanitizeLocations(value: unknown): Sanitized<ToolCallLocation> {
  if (!Array.isArray(value)) return { items: [], dropped: value === undefined ? NOTHING_DROPPED : ['locations is not an array'] };
  if (value.every(isLocation)) return { items: value as ToolCallLocation[], dropped: NOTHING_DROPPED };
  const items: ToolCallLocation[] = [];
  let dropped: string[] | undefined;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (isLocation(item)) {
      items.push(item as ToolCallLocation);
    } else {
      (dropped ??= []).push(`locations[${index}] is not a location (${describe(item)})`);
    }
  }
  return { items, dropped: dropped ?? NOTHING_DROPPED };
}

function isLocation(item: unknown): item is ToolCallLocation {
  return isRecord(item) && typeof item.path === 'string' && (item.line == null || typeof item.line === 'number');
}

function describe(value: unknown): string {
  if (isRecord(value)) return typeof value.type === 'string' ? `type "${value.type}"` : 'object';
  return value === null ? 'null' : typeof value;
}

/**
 * Structural equality of JSON values, so re-sending what a call already holds (a permission
 * request repeats the call, some agents repeat `tool_call`) changes nothing and reloads nothing.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    // A loop, not `every`: a closure per compared array, and this runs per tool-call update.
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const recordA = a as Record<string, unknown>;
  const recordB = b as Record<string, unknown>;
  // Keys whose value is undefined are absent on the wire. Loops, not key lists: this runs for
  // several fields of every tool-call update, and lists were most of its cost.
  let definedInA = 0;
  for (const key in recordA) {
    if (!Object.hasOwn(recordA, key) || recordA[key] === undefined) continue;
    if (!Object.hasOwn(recordB, key) || !jsonEqual(recordA[key], recordB[key])) return false;
    definedInA++;
  }
  let definedInB = 0;
  for (const key in recordB) if (Object.hasOwn(recordB, key) && recordB[key] !== undefined) definedInB++;
  return definedInA === definedInB;
}
