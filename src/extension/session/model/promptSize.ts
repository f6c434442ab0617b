import type { ContentBlock } from '@agentclientprotocol/sdk';

/**
 * How big a prompt is on the wire, and whether the agent can take it. A JSON-RPC line over the
 * agent's read limit (32 MiB in the SDK's stdio reader and in Node's readline-based agents) kills
 * the connection, and the session with it; the client refuses such a prompt before sending it,
 * with the size and the limit, so the person can shorten it.
 */

/** `acpNative.prompt.maxBytes` by default: well under 32 MiB, leaving room for the request's own JSON. */
export const DEFAULT_PROMPT_MAX_BYTES = 8 * 1024 * 1024;
/** The most the setting may say: over this an agent's 32 MiB line limit is near. */
export const PROMPT_MAX_BYTES_CEILING = 30 * 1024 * 1024;
/** The least, so a typo cannot refuse every prompt. */
export const PROMPT_MAX_BYTES_FLOOR = 64 * 1024;

/** The setting's value, kept within floor and ceiling; anything not a number is the default. */
export function promptLimit(setting: unknown): number {
  if (typeof setting !== 'number' || !Number.isFinite(setting)) return DEFAULT_PROMPT_MAX_BYTES;
  return Math.min(PROMPT_MAX_BYTES_CEILING, Math.max(PROMPT_MAX_BYTES_FLOOR, Math.floor(setting)));
}

/** UTF-8 bytes of a string, without encoding it (a pasted log can be tens of megabytes). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Bytes the blocks take in the request's JSON (escapes counted: a log full of quotes grows). */
export function blocksBytes(blocks: readonly ContentBlock[]): number {
  return utf8Bytes(JSON.stringify(blocks));
}

export interface PromptPart {
  /** What the person calls it: "The prompt", an attachment's name. */
  readonly name: string;
  readonly blocks: readonly ContentBlock[];
}

export interface PromptTooLarge {
  readonly bytes: number;
  readonly limit: number;
  /** The largest part, when the prompt has several: what to remove first. */
  readonly largest?: { readonly name: string; readonly bytes: number };
  readonly message: string;
}

/** Undefined when the parts fit under the limit; else what to tell the person. */
export function checkPromptSize(parts: readonly PromptPart[], limit: number): PromptTooLarge | undefined {
  const sizes = parts.map((part) => ({ name: part.name, bytes: blocksBytes(part.blocks) }));
  const bytes = sizes.reduce((sum, s) => sum + s.bytes, 0);
  if (bytes <= limit) return undefined;
  const largest = sizes.length > 1 ? sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a)) : undefined;
  const what = largest ? ` (the largest part: ${largest.name}, ${formatBytes(largest.bytes)})` : '';
  return {
    bytes,
    limit,
    ...(largest ? { largest } : {}),
    message: `The prompt is ${formatBytes(bytes)}${what}, over the limit of ${formatBytes(limit)} (acpNative.prompt.maxBytes): nothing was sent. Shorten it or attach less.`,
  };
}

/** An attachment alone over the limit: refused when it is attached, not when the prompt is sent. */
export function checkAttachmentSize(name: string, blocks: readonly ContentBlock[], limit: number): PromptTooLarge | undefined {
  const bytes = blocksBytes(blocks);
  if (bytes <= limit) return undefined;
  return { bytes, limit, message: `${name} is ${formatBytes(bytes)}, over the prompt limit of ${formatBytes(limit)} (acpNative.prompt.maxBytes): not attached.` };
}

/** "12.4 MiB", "512 KiB", "900 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, '')} KiB`;
  return `${bytes} bytes`;
}

/** Thrown by the session verbs for a prompt over the limit (the API's callers see the message). */
export class PromptTooLargeError extends Error {
  constructor(readonly details: PromptTooLarge) {
    super(details.message);
  }
}
