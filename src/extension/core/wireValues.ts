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

export function sanitizeContent(value: unknown): Sanitized<ToolCallContent> {
  if (!Array.isArray(value)) return { items: [], dropped: value === undefined ? NOTHING_DROPPED : ['content is not an array'] };
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
  const items: ToolCallLocation[] = [];
  let dropped: string[] | undefined;
  for (let index = 0; index < value.length; index++) {
    const item: unknown = value[index];
    if (isRecord(item) && typeof item.path === 'string' && (item.line == null || typeof item.line === 'number')) {
      items.push(item as ToolCallLocation);
    } else {
      (dropped ??= []).push(`locations[${index}] is not a location (${describe(item)})`);
    }
  }
  return { items, dropped: dropped ?? NOTHING_DROPPED };
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
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const recordA = a as Record<string, unknown>;
  const recordB = b as Record<string, unknown>;
  // Keys whose value is undefined are absent on the wire.
  const keysA = Object.keys(recordA).filter((k) => recordA[k] !== undefined);
  const keysB = Object.keys(recordB).filter((k) => recordB[k] !== undefined);
  return keysA.length === keysB.length && keysA.every((k) => Object.hasOwn(recordB, k) && jsonEqual(recordA[k], recordB[k]));
}
