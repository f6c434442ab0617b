import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const FIXTURE = path.resolve(__dirname, '../../fixtures/workspace');
const made: string[] = [];

/** A fresh temporary folder (real path: macOS /tmp is a symlink, and titles compare paths). */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), `acp-native-${prefix}-`)));
  made.push(dir);
  return dir;
}

/** A private copy of the sample workspace: tests change files, the fixture never changes. */
export function tempWorkspace(): string {
  const dir = tempDir('ws');
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
