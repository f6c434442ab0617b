/**
 * Path rules for what the agent asks (pure). Paths from an agent are untrusted: they must be
 * absolute, are normalized before any check, and are allowed only inside the workspace folders.
 */
import * as path from 'node:path';

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/** Normalizes an absolute path; relative paths are refused (ACP paths are absolute). */
export function normalizeAbsolute(p: string, impl: path.PlatformPath = path): PathCheck {
  if (typeof p !== 'string' || p.length === 0) return { ok: false, reason: 'The path is empty.' };
  if (p.includes('\0')) return { ok: false, reason: 'The path contains a NUL character.' };
  if (!impl.isAbsolute(p)) return { ok: false, reason: `The path must be absolute: ${p}` };
  return { ok: true, path: impl.normalize(p) };
}

/** Whether `child` is `parent` or lies beneath it (both normalized absolute paths). */
export function isInside(child: string, parent: string, impl: path.PlatformPath = path): boolean {
  const rel = impl.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !impl.isAbsolute(rel));
}

/** Slices text by a 1-based first line and a line count, as `fs/read_text_file` asks. */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
  if (line == null && limit == null) return text;
  const lines = text.split('\n');
  const start = Math.max(0, (line ?? 1) - 1);
  const end = limit == null ? lines.length : start + Math.max(0, limit);
  return lines.slice(start, end).join('\n');
}

/**
 * The one spelling of a resolved (real) path: under the workspace folder it lies in, spelled as
 * that folder is (a folder opened through a symlink keeps its spelling), else the real path.
 * Every spelling of one file (`./`, `../`, a symlink) gives the same key.
 */
export function canonicalSpelling(
  real: string,
  folders: readonly { path: string; real: string }[],
  impl: path.PlatformPath = path,
): string {
  for (const folder of folders) {
    if (isInside(real, folder.real, impl)) {
      const rel = impl.relative(folder.real, real);
      return rel === '' ? folder.path : impl.join(folder.path, rel);
    }
  }
  return real;
}
