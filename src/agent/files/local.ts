/**
 * The local file store: the filesystem, read and written directly, for clients that do not offer
 * `fs/*`. It returns storage facts only — the LF-normalized text before and after each mutation —
 * and knows nothing of diffs or UI.
 *
 * Line endings: tools see LF text. An edit splices the raw text, so untouched lines keep their
 * bytes (CRLF, or a mix); inserted newlines take the file's dominant ending. Binary or non-UTF-8
 * files are never decoded and re-encoded: edits refuse them, a write replaces them whole.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { planReplacement, type ReplacementSite } from '../textEdit';
import { ToolError } from '../tools/types';
import type { EditFacts, FileStore, MutationFacts } from './store';

export const BOM = '\uFEFF';

/** Text as tools see it (LF), with what it takes to write it back as it was. */
export interface RawText {
  kind: 'text';
  /** LF-normalized, without the BOM. */
  text: string;
  /** The dominant line ending: what inserted newlines become. */
  eol: '\n' | '\r\n';
  bom: boolean;
  /** As read, without the BOM. */
  raw: string;
  /** Normalized offsets of the `\n`s that were `\r\n`. */
  crlfAt: number[];
}

export type DecodedFile = RawText | { kind: 'binary'; size: number };

export const localFileStore: FileStore = {
  readText: (filePath) => readDecoded(filePath),
  writeText: (filePath, content) => writeText(filePath, content),
  editText: (filePath, oldString, newString, replaceAll) => editText(filePath, oldString, newString, replaceAll),
};

/** Decodes bytes as UTF-8 text, or reports them as binary (a NUL byte or invalid UTF-8). */
export function decode(bytes: Uint8Array): DecodedFile {
  if (bytes.indexOf(0) !== -1) return { kind: 'binary', size: bytes.length };
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { kind: 'binary', size: bytes.length };
  }
  return decodeText(decoded);
}

/** Splits decoded text into the LF text tools see and what it takes to write it back (BOM, CRLFs). */
export function decodeText(decoded: string): RawText {
  const bom = decoded.startsWith(BOM);
  const raw = bom ? decoded.slice(1) : decoded;
  const crlfAt: number[] = [];
  let text = raw;
  if (raw.includes('\r\n')) {
    // Normalized index of every '\n' that was a CRLF, to map edits back onto the raw text.
    for (let at = raw.indexOf('\r\n'); at !== -1; at = raw.indexOf('\r\n', at + 2)) crlfAt.push(at - crlfAt.length);
    text = raw.replace(/\r\n/g, '\n');
  }
  const newlines = countChar(text, '\n');
  const eol = crlfAt.length > newlines - crlfAt.length ? '\r\n' : '\n';
  return { kind: 'text', text, eol, bom, raw, crlfAt };
}

export async function readDecoded(filePath: string): Promise<DecodedFile> {
  await assertNotDirectory(filePath);
  try {
    return decode(await readFile(filePath));
  } catch (error) {
    throw asToolError(error, filePath);
  }
}

/** Writes `content` whole, creating parent folders; an existing CRLF file stays CRLF. */
export async function writeText(filePath: string, content: string): Promise<MutationFacts> {
  const existing = await readIfExists(filePath);
  const after = content.replace(/\r\n/g, '\n');
  let onDisk = content;
  if (existing?.kind === 'text') {
    if (existing.eol === '\r\n') onDisk = after.replace(/\n/g, '\r\n');
    if (existing.bom) onDisk = BOM + onDisk;
  }
  await mkdir(path.dirname(filePath), { recursive: true });
  await writeOrFail(filePath, onDisk);
  return { before: existing?.kind === 'text' ? existing.text : null, after, created: existing === undefined };
}

/**
 * Replaces `oldString` (LF text) in the file. An empty `oldString` creates the file, or fills an
 * empty one, with `newString`.
 */
export async function editText(filePath: string, oldString: string, newString: string, replaceAll: boolean): Promise<EditFacts> {
  const existing = await readIfExists(filePath);
  const oldLf = oldString.replace(/\r\n/g, '\n');
  const newLf = newString.replace(/\r\n/g, '\n');
  if (existing === undefined) {
    if (oldLf !== '') throw new ToolError(`File not found: ${filePath}`);
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeOrFail(filePath, newString);
    return { before: null, after: newLf, created: true, sites: [] };
  }
  if (existing.kind === 'binary') {
    throw new ToolError(`Refusing to edit ${filePath}: it is binary or not UTF-8 text (${existing.size} bytes). Use write to replace it whole.`);
  }
  if (oldLf === '') {
    if (existing.text !== '') throw new ToolError('old_string is empty but the file is not; give the text to replace.');
    await writeOrFail(filePath, (existing.bom ? BOM : '') + newLf.replace(/\n/g, existing.eol));
    return { before: '', after: newLf, created: false, sites: [{ beforeOffset: 0, oldLength: 0, afterOffset: 0, newLength: newLf.length }] };
  }
  const plan = planReplacement(existing.text, oldLf, newLf, replaceAll);
  if (!plan.ok) throw new ToolError(plan.error);
  await writeOrFail(filePath, (existing.bom ? BOM : '') + spliceRaw(existing, plan.sites, newLf));
  return { before: existing.text, after: plan.after, created: false, sites: plan.sites };
}

/** Applies the sites (planned on LF text) to the raw text, leaving every other byte as it was. */
export function spliceRaw(file: RawText, sites: ReplacementSite[], newLf: string): string {
  const replacement = file.eol === '\n' ? newLf : newLf.replace(/\n/g, file.eol);
  const toRaw = (offset: number): number => offset + countBelow(file.crlfAt, offset);
  const pieces: string[] = [];
  let cursor = 0;
  for (const site of sites) {
    const start = toRaw(site.beforeOffset);
    pieces.push(file.raw.slice(cursor, start), replacement);
    cursor = toRaw(site.beforeOffset + site.oldLength);
  }
  pieces.push(file.raw.slice(cursor));
  return pieces.join('');
}

/** How many sorted values are below `limit` (binary search). */
function countBelow(sorted: number[], limit: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

async function readIfExists(filePath: string): Promise<DecodedFile | undefined> {
  await assertNotDirectory(filePath);
  try {
    return decode(await readFile(filePath));
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw asToolError(error, filePath);
  }
}

export async function assertNotDirectory(filePath: string): Promise<void> {
  const info = await stat(filePath).catch(() => undefined);
  if (info?.isDirectory()) throw new ToolError(`${filePath} is a directory, not a file.`);
}

async function writeOrFail(filePath: string, text: string): Promise<void> {
  try {
    await writeFile(filePath, text, 'utf8');
  } catch (error) {
    throw asToolError(error, filePath);
  }
}

function asToolError(error: unknown, filePath: string): ToolError {
  if (isErrno(error, 'ENOENT')) return new ToolError(`File not found: ${filePath}`);
  if (isErrno(error, 'EACCES') || isErrno(error, 'EPERM')) return new ToolError(`Permission denied: ${filePath}`);
  return new ToolError(error instanceof Error ? error.message : String(error));
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

function countChar(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) count++;
  return count;
}
