import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMAND_GRACE_MS } from '../../src/extension/review/model/captureDeps';
import { actionLogSuite, longestBlock, writeSeen } from './support/actionLog';
import { inWorkspace, waitFor, workspaceRoot } from './support/helpers';

/** Every file under a folder with its hash. */
function hashTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** What these tests use of VS Code's git extension API (`vscode.git`, `getAPI(1)`). */
interface GitApi {
  readonly repositories: readonly { readonly rootUri: vscode.Uri }[];
}

/**
 * Has VS Code's git extension close its repository of a folder, if it opened one, and waits until
 * it has. A repository deleted while open has the extension run git in a folder that is no longer
 * one: its `git check-ignore` exits before reading the paths written to its stdin, and the EPIPE
 * is an uncaught error in this extension host, failing whichever test runs then (seen on 1.139).
 */
async function closeGitRepository(root: string): Promise<void> {
  const git = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!git?.isActive) return;
  const api = git.exports.getAPI(1);
  const open = (): boolean => api.repositories.some((r) => r.rootUri.fsPath === root);
  if (!open()) return;
  await vscode.commands.executeCommand('git.close', vscode.Uri.file(root));
  await waitFor('VS Code\'s git extension to close the repository', () => !open());
}

const sha = (file: string): string => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('checkpoints: the whole workspace at each prompt', function () {
  const suite = actionLogSuite('third-party-log', ['--load-session', '--session-prefix', 'cp-']);
  const { prompt } = suite;
  const userGit = path.join(workspaceRoot(), '.git');
  let madeGit = false;
  let gitBefore: Map<string, string>;

  before(async () => {
    // An earlier suite's last turn still takes file events for its command's doing during the
    // command grace: this suite's own writes must not fall into it.
    await new Promise((resolve) => setTimeout(resolve, COMMAND_GRACE_MS + 500));
    // The user's own repository, with a staged file and a hook that must never run.
    if (!fs.existsSync(userGit)) {
      execFileSync('git', ['init', '-q'], { cwd: workspaceRoot() });
      madeGit = true;
    }
    fs.writeFileSync(inWorkspace('cp-staged.txt'), 'staged\n');
    execFileSync('git', ['add', 'cp-staged.txt'], { cwd: workspaceRoot() });
    fs.writeFileSync(path.join(userGit, 'hooks', 'pre-commit'), '#!/bin/sh\ntouch "$(git rev-parse --show-toplevel)/cp-hook-ran"\n', { mode: 0o755 });
    gitBefore = hashTree(userGit);
  });

  after(async () => {
    fs.rmSync(inWorkspace('cp-staged.txt'), { force: true });
    if (!madeGit) return;
    await closeGitRepository(workspaceRoot());
    fs.rmSync(userGit, { recursive: true, force: true });
  });

  it('undoes a command\'s `sed -i` of a file no editor has open, byte for byte, from the checkpoint', async () => {
    const file = inWorkspace('src/cp-sed.txt');
    const original = 'alpha\r\nsecond line\r\nalpha again\n\u00e9t\u00e9\r\n';
    await writeSeen([[file, original]]);
    await prompt(`shell sed -i 's/alpha/beta/' src/cp-sed.txt`);
    assert.match(fs.readFileSync(file, 'utf8'), /^beta/);
    const change = await waitFor(
      'the change undoable from the checkpoint',
      () => {
        const c = suite.changeOf(file);
        return c?.status === 'pending' ? c : undefined;
      },
      15_000,
      () => JSON.stringify(suite.api.changes().filter((c) => c.path === file)),
    );
    assert.equal(change.source, 'watcher');
    for (let i = 0; i < change.hunks; i++) await suite.api.undoHunk(file, i);
    assert.equal(fs.readFileSync(file, 'utf8'), original);
    assert.ok(suite.api.checkpoints().some((c) => c.turn === change.turn));
  });

  it('restores a folder a command deleted and a 5 MB file it rewrote, keeps the user\'s later edits, and Undo Restore takes it back', async () => {
    const dir = inWorkspace('src/cp-folder');
    fs.mkdirSync(path.join(dir, 'deep'), { recursive: true });
    const big = inWorkspace('src/cp-big.bin');
    const mine = inWorkspace('src/cp-mine.txt');
    const both = inWorkspace('src/cp-both.txt');
    // (A new folder's files may be reported as the folder's creation alone: not waited for.)
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(dir, 'deep', 'b.bin'), crypto.randomBytes(3000));
    await writeSeen([
      [big, crypto.randomBytes(5 * 1024 * 1024)],
      [mine, 'mine\n'],
      [both, 'both\n'],
    ]);
    const hashes = { a: sha(path.join(dir, 'a.txt')), b: sha(path.join(dir, 'deep', 'b.bin')), big: sha(big) };
    await longestBlock('a checkpoint and a turn deleting a folder and writing 5 MB', () =>
      prompt(`shell rm -rf src/cp-folder && head -c 5242880 /dev/urandom > src/cp-big.bin && echo agent > src/cp-both.txt && echo new > src/cp-new.txt`),
    );
    const turn = suite.api.checkpoints().at(-1)?.turn;
    assert.ok(turn !== undefined);
    assert.equal(fs.existsSync(dir), false);
    const agentBig = sha(big);
    // The user's own edits after the turn: one of a file the agent left alone, one of a file it changed.
    fs.writeFileSync(mine, 'my edit\n');
    fs.writeFileSync(both, 'my edit over the agent\n');

    const restored = await suite.api.restoreCheckpoint(turn);
    assert.equal(sha(path.join(dir, 'a.txt')), hashes.a);
    assert.equal(sha(path.join(dir, 'deep', 'b.bin')), hashes.b);
    assert.equal(sha(big), hashes.big);
    assert.equal(fs.existsSync(inWorkspace('src/cp-new.txt')), false);
    assert.equal(fs.readFileSync(mine, 'utf8'), 'my edit\n');
    assert.equal(fs.readFileSync(both, 'utf8'), 'my edit over the agent\n');
    assert.ok(restored.conflicts.some((c) => c.path === both), JSON.stringify(restored));
    assert.ok(restored.files.includes(big) && restored.files.includes(path.join(dir, 'a.txt')), JSON.stringify(restored.files));

    await suite.api.undoRestore();
    assert.equal(fs.existsSync(dir), false);
    assert.equal(sha(big), agentBig);
    assert.equal(fs.readFileSync(inWorkspace('src/cp-new.txt'), 'utf8'), 'new\n');
    assert.equal(fs.readFileSync(mine, 'utf8'), 'my edit\n');
  });

  it('leaves the user\'s .git byte for byte as it was, and runs none of its hooks', () => {
    assert.deepEqual(hashTree(userGit), gitBefore);
    assert.equal(fs.existsSync(inWorkspace('cp-hook-ran')), false);
    assert.match(execFileSync('git', ['status', '--porcelain', 'cp-staged.txt'], { cwd: workspaceRoot() }).toString(), /^A {2}cp-staged\.txt/);
  });
});
