/**
 * How a registry agent becomes a program to run: the command line of an `npx`/`uvx` package, the
 * archive format of a `binary`, where its files may go and which program in it to start. Pure.
 */
import * as path from 'node:path';
import { assertNever } from '../../../../protocol/assertNever';
import type { BinaryTarget, PackageDistribution } from './registry';

export interface CommandLine {
  command: string;
  args: string[];
  env: Record<string, string>;
}

export type PackageRunner = 'npx' | 'uvx';

/** What to install when a runner is missing from PATH. */
export const RUNNER_HINTS: Record<PackageRunner, string> = {
  npx: 'npx comes with Node.js: install Node.js (https://nodejs.org) and make sure npx is on PATH',
  uvx: 'uvx comes with uv: install uv (https://docs.astral.sh/uv/getting-started/installation/) and make sure uvx is on PATH',
};

/**
 * `npx -y <package> [args]` or `npx -y --package <package> <cmd> [args]`; `uvx <package> [args]`
 * or `uvx --from <package> <cmd> [args]`. `-y`: npx would otherwise stop to ask on stdin, which is
 * the ACP channel. On Windows the runners are `.cmd` scripts that Node only starts through cmd.exe.
 */
export function packageCommandLine(runner: PackageRunner, dist: PackageDistribution, platform: NodeJS.Platform): CommandLine {
  let args: string[];
  switch (runner) {
    case 'npx':
      args = dist.cmd ? ['-y', '--package', dist.package, dist.cmd, ...dist.args] : ['-y', dist.package, ...dist.args];
      break;
    case 'uvx':
      args = dist.cmd ? ['--from', dist.package, dist.cmd, ...dist.args] : [dist.package, ...dist.args];
      break;
    default:
      assertNever(runner, 'package runner');
  }
  if (platform === 'win32' && runner === 'npx') return { command: 'cmd.exe', args: ['/d', '/s', '/c', 'npx.cmd', ...args], env: { ...dist.env } };
  return { command: runner, args, env: { ...dist.env } };
}

/** The program file names to look for on PATH. */
export function runnerFileNames(runner: PackageRunner, platform: NodeJS.Platform): string[] {
  if (platform !== 'win32') return [runner];
  return runner === 'npx' ? ['npx.cmd', 'npx.exe'] : ['uvx.exe', 'uvx.cmd'];
}

export type ArchiveKind = 'zip' | 'tar.gz' | 'tar.bz2' | 'raw';

/** The format of a `binary` download, from its URL's path (query and fragment ignored). */
export function archiveKind(url: string): ArchiveKind {
  const name = new URL(url).pathname.toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  if (name.endsWith('.tar.bz2') || name.endsWith('.tbz2')) return 'tar.bz2';
  return 'raw';
}

/** An archive entry that would land outside its folder, or that is a link; the whole archive is refused. */
export class UnsafeArchiveError extends Error {
  override readonly name = 'UnsafeArchiveError';
}

/**
 * The relative path an archive entry may be written to under the install folder, or an
 * {@link UnsafeArchiveError}. Refused: absolute paths (`/x`, `\x`, `C:x`, `//host`), any `..`
 * segment, NUL bytes. Backslashes count as separators (Windows-made zips use them).
 * Returns '' for the archive's root folder entry (`./`).
 */
export function safeEntryPath(entryName: string): string {
  const where = JSON.stringify(entryName);
  if (entryName.includes('\0')) throw new UnsafeArchiveError(`archive entry ${where} has a NUL byte in its name`);
  const slashed = entryName.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) throw new UnsafeArchiveError(`archive entry ${where} has an absolute path`);
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new UnsafeArchiveError(`archive entry ${where} climbs out of its folder with ".."`);
  return segments.join('/');
}

/** Archive entry kinds as the extractors report them. Only files and folders are installed. */
export type EntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

/** Throws for an entry whose kind is never installed: links could point anywhere, devices are not programs. */
export function checkEntryType(entryName: string, type: EntryType): void {
  switch (type) {
    case 'file':
    case 'directory':
      return;
    case 'symlink':
    case 'hardlink':
      throw new UnsafeArchiveError(`archive entry ${JSON.stringify(entryName)} is a ${type === 'symlink' ? 'symbolic' : 'hard'} link; agent archives with links are not installed`);
    case 'other':
      throw new UnsafeArchiveError(`archive entry ${JSON.stringify(entryName)} is neither a file nor a folder`);
    default:
      assertNever(type, 'archive entry type');
  }
}

/**
 * The program of a binary target inside its install folder (`./codex-acp` → `<dir>/codex-acp`).
 * A `cmd` that leaves the folder is refused like an archive entry would be.
 */
export function binaryProgram(installDir: string, target: BinaryTarget): string {
  const relative = safeEntryPath(target.cmd);
  if (!relative) throw new UnsafeArchiveError(`the command ${JSON.stringify(target.cmd)} names no program`);
  return path.join(installDir, ...relative.split('/'));
}

/** A file name for a raw-binary download: the `cmd`'s own name. */
export function rawProgramName(target: BinaryTarget): string {
  return safeEntryPath(target.cmd);
}

/**
 * Agent ids and versions become folder names; the registry's id pattern is safe, a version might
 * not be (`../x` would climb out), so it is checked here too.
 */
export function installFolderName(value: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(value) || value.includes('..')) {
    throw new UnsafeArchiveError(`${JSON.stringify(value)} cannot be used as a folder name`);
  }
  return value;
}
