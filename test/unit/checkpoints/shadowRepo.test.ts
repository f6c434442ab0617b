import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ShadowRepo } from '../../../src/extension/checkpoints/shadowRepo';
import { gitEnv } from '../../../src/extension/checkpoints/model/shadowGit';

/** Every file under a folder with its hash (the user's `.git`, byte for byte). */
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

describe('checkpoints: the shadow repository (real git)', () => {
  let tmp: string;
  let folder: string;
  let repo: ShadowRepo;
  const warnings: string[] = [];
  const opts = { maxFileBytes: 1024 * 1024, filesExclude: { '**/*.tmpx': true, 'build': true } };

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-shadow-'));
    folder = path.join(tmp, 'ws');
    fs.mkdirSync(folder);
    const home = path.join(tmp, 'storage', 'home');
    fs.mkdirSync(home, { recursive: true });
    repo = new ShadowRepo(path.join(tmp, 'storage', 'repo'), folder, gitEnv(process.env, home), (m) => warnings.push(m));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('restores edited, deleted and created files byte for byte and never touches the user\'s .git', async () => {
    // The user's own repository, with a staged change, a stash-like ref and a hook.
    execFileSync('git', ['init', '-q'], { cwd: folder });
    fs.writeFileSync(path.join(folder, 'a.txt'), 'one\r\ntwo\n');
    fs.mkdirSync(path.join(folder, 'dir', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'dir', 'deep', 'x.bin'), crypto.randomBytes(5000));
    fs.writeFileSync(path.join(folder, '.gitignore'), 'ignored.log\n');
    fs.writeFileSync(path.join(folder, 'ignored.log'), 'secret');
    fs.writeFileSync(path.join(folder, 'junk.tmpx'), 'excluded by files.exclude');
    execFileSync('git', ['add', 'a.txt'], { cwd: folder });
    fs.writeFileSync(path.join(folder, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\necho HOOK > hook-ran\n', { mode: 0o755 });
    const userGit = hashTree(path.join(folder, '.git'));
    const before = { a: fs.readFileSync(path.join(folder, 'a.txt')), x: fs.readFileSync(path.join(folder, 'dir', 'deep', 'x.bin')) };

    const base = await repo.snapshot('refs/acp/base', opts);
    fs.writeFileSync(path.join(folder, 'a.txt'), 'changed');
    fs.rmSync(path.join(folder, 'dir'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'new.txt'), 'new');
    const now = await repo.snapshot('refs/acp/now', opts);
    const diff = await repo.diff(base.commit, now.commit);
    assert.deepEqual(Object.fromEntries(diff), { 'a.txt': 'modified', 'dir/deep/x.bin': 'deleted', 'new.txt': 'added' });

    await repo.putBack(base.commit, [repo.abs('a.txt'), repo.abs('dir/deep/x.bin')], [repo.abs('new.txt')], () => undefined);
    assert.deepEqual(fs.readFileSync(path.join(folder, 'a.txt')), before.a);
    assert.deepEqual(fs.readFileSync(path.join(folder, 'dir', 'deep', 'x.bin')), before.x);
    assert.equal(fs.existsSync(path.join(folder, 'new.txt')), false);
    assert.deepEqual(hashTree(path.join(folder, '.git')), userGit);
    assert.equal(fs.existsSync(path.join(folder, 'hook-ran')), false);
    assert.equal(await repo.entry(base.commit, path.join(folder, 'ignored.log')), undefined);
    assert.equal(await repo.entry(base.commit, path.join(folder, 'junk.tmpx')), undefined);
    assert.equal(await repo.ignored(path.join(folder, 'ignored.log')), true);
  });

  it('lists files over the size limit instead of storing them, also once they were stored', async () => {
    fs.writeFileSync(path.join(folder, 'big.bin'), Buffer.alloc(1000, 1));
    const first = await repo.snapshot('refs/acp/1', opts);
    assert.deepEqual(first.tooLarge, []);
    fs.writeFileSync(path.join(folder, 'big.bin'), Buffer.alloc(2 * 1024 * 1024, 2));
    const second = await repo.snapshot('refs/acp/2', opts);
    assert.deepEqual(second.tooLarge, ['big.bin']);
    assert.equal(await repo.entry(second.commit, path.join(folder, 'big.bin')), undefined);
  });

  it('makes a deleted or corrupted shadow repository afresh', async () => {
    fs.writeFileSync(path.join(folder, 'a.txt'), 'a');
    await repo.snapshot('refs/acp/1', opts);
    fs.rmSync(path.join(repo.git.gitDir, 'objects'), { recursive: true });
    const again = await repo.snapshot('refs/acp/2', opts);
    assert.ok(await repo.entry(again.commit, path.join(folder, 'a.txt')));
    fs.rmSync(repo.git.gitDir, { recursive: true });
    const third = await repo.snapshot('refs/acp/3', opts);
    assert.ok(await repo.entry(third.commit, path.join(folder, 'a.txt')));
  });

  it('keeps a nested repository\'s .git out', async () => {
    const nested = path.join(folder, 'sub');
    fs.mkdirSync(nested);
    execFileSync('git', ['init', '-q'], { cwd: nested });
    fs.writeFileSync(path.join(nested, 'f.txt'), 'f');
    const made = await repo.snapshot('refs/acp/1', opts);
    const files = execFileSync('git', [`--git-dir=${repo.git.gitDir}`, 'ls-tree', '-r', '--name-only', made.commit], { env: gitEnv(process.env, tmp) }).toString();
    assert.doesNotMatch(files, /\.git\//);
  });
});
