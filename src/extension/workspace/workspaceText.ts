import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { canonicalSpelling } from './model/paths';
import { decodeFileBytes, normalizeEol, plainBytes, type UnreadableReason } from './model/fileText';

/**
 * The one place that reads a file's current text: the open document (found through real paths,
 * so a symlink or another spelling finds it too) or the bytes on disk, decoded only when they
 * round-trip. Everything that shows, reads, writes or restores a file's text goes through here.
 */

/** A path resolved through every symlink, or why it cannot be. */
export type ResolvedPath = { ok: true; path: string } | { ok: false; danglingLink: string; target: string };

/**
 * The real path of a file, or of its nearest existing ancestor joined with the rest (a file not
 * yet created), spelled under the workspace folder it lies in. A symlink on the way whose target
 * is missing is reported: writing through it would create a file wherever it points.
 */
export async function resolvePath(p: string): Promise<ResolvedPath> {
  const real = await realpathOfNearest(p);
  if (!real.ok) return real;
  return { ok: true, path: canonicalSpelling(real.path, await workspaceFolderReals()) };
}

/** The real path (nearest existing ancestor plus the rest) of `p`, not respelled. */
export async function realpathOfNearest(p: string): Promise<ResolvedPath> {
  let current = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return { ok: true, path: path.join(await fs.realpath(current), ...[...rest].reverse()) };
    } catch {
      const link = await fs.readlink(current).catch(() => undefined);
      if (link !== undefined) return { ok: false, danglingLink: current, target: path.resolve(path.dirname(current), link) };
      const parent = path.dirname(current);
      if (parent === current) return { ok: true, path: p };
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

async function workspaceFolderReals(): Promise<{ path: string; real: string }[]> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  return Promise.all(
    folders.map(async (f) => {
      const real = await realpathOfNearest(f.uri.fsPath);
      return { path: f.uri.fsPath, real: real.ok ? real.path : f.uri.fsPath };
    }),
  );
}

/**
 * The open document of a file, whatever spelling it was opened under (a symlink, `./`…). The
 * exact spelling is tried first; other file documents are compared by real path.
 */
export async function openDocumentOf(filePath: string): Promise<vscode.TextDocument | undefined> {
  const docs = vscode.workspace.textDocuments.filter((d) => d.uri.scheme === 'file' && !d.isClosed);
  const exact = docs.find((d) => d.uri.fsPath === filePath);
  if (exact) return exact;
  const target = await realpathOfNearest(filePath);
  if (!target.ok) return undefined;
  const reals = await Promise.all(docs.map((d) => realpathOfNearest(d.uri.fsPath)));
  return docs.find((_, i) => {
    const real = reals[i];
    return real.ok && real.path === target.path;
  });
}

/** What is on disk at a path, as text when it round-trips. */
export type DiskText =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'unreadable'; reason: UnreadableReason; bytes: Uint8Array }
  | { kind: 'text'; text: string; bom: boolean; bytes: Uint8Array };

export async function readDisk(filePath: string): Promise<DiskText> {
  let stat: import('node:fs').Stats;
  try {
    stat = await fs.stat(filePath);
  } catch (error) {
    if (isNotFound(error)) return { kind: 'missing' };
    throw error;
  }
  if (stat.isDirectory()) return { kind: 'directory' };
  const bytes = plainBytes(await fs.readFile(filePath));
  const decoded = decodeFileBytes(bytes);
  return decoded.ok ? { kind: 'text', text: decoded.text, bom: decoded.bom, bytes } : { kind: 'unreadable', reason: decoded.reason, bytes };
}

/** A file's current text as the user sees it, LF-normalized, or why it cannot be given. */
export type CurrentText =
  | { kind: 'text'; text: string; document?: vscode.TextDocument }
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'unreadable'; reason: UnreadableReason };

/**
 * The open document's unsaved text when it has some, else the file on disk. A document whose
 * file is not UTF-8 is never served: its text was decoded with replacement characters, or in an
 * encoding a write could not keep.
 */
export async function currentText(filePath: string): Promise<CurrentText> {
  const [document, disk] = await Promise.all([openDocumentOf(filePath), readDisk(filePath)]);
  switch (disk.kind) {
    case 'directory':
      return disk;
    case 'unreadable':
      return { kind: 'unreadable', reason: disk.reason };
    case 'missing':
      return document ? { kind: 'text', text: normalizeEol(document.getText()), document } : disk;
    case 'text':
      // A saved document shows the file; the file is the exact truth (no reload lag).
      return document?.isDirty
        ? { kind: 'text', text: normalizeEol(document.getText()), document }
        : { kind: 'text', text: normalizeEol(disk.text), ...(document ? { document } : {}) };
  }
}

/** The current text, or undefined when there is none to show (renderers show something else). */
export async function currentTextOrUndefined(filePath: string): Promise<string | undefined> {
  try {
    const current = await currentText(filePath);
    return current.kind === 'text' ? current.text : undefined;
  } catch {
    return undefined;
  }
}

/** Bytes decoded for display (a snapshot in the review editor): lossy is better than nothing there. */
export function displayTextOf(bytes: Uint8Array | undefined): string {
  if (!bytes) return '';
  const decoded = decodeFileBytes(bytes);
  return decoded.ok ? decoded.text : new TextDecoder('utf-8').decode(bytes);
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
