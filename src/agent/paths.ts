import { realpathSync } from 'node:fs';
import * as path from 'node:path';

/** The real path where it exists (symlinks resolved), else the resolved path itself. */
function real(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function inside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether `file` lies inside one of `roots`, by its path and by its real path: a symlink inside a
 * root that points outside it is outside.
 */
export function isInsideAny(file: string, roots: readonly string[]): boolean {
  const resolved = path.resolve(file);
  const realFile = real(resolved);
  return roots.some((root) => inside(resolved, path.resolve(root)) && inside(realFile, real(root)));
}
