import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..');
const vsce = path.join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
const ALLOWED = new Set([
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'dist/extension.js',
  'dist/agent.js',
  'media/acp.svg',
  // The Chat webview, built: never its TypeScript sources or source maps.
  'media/chat/chat.js',
  'media/chat/chat.css',
  // The ACP Registry as of its snapshot date: the catalogue when the network is unreachable.
  'resources/registry-snapshot.json',
]);

describe('the VSIX', function () {
  this.timeout(180_000);
  let dir: string;

  before(() => {
    // Package a copy with a production build, plus files that must stay out, so the test neither
    // disturbs the development build nor depends on what happens to lie around.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-vsix-'));
    for (const f of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', '.vscodeignore', 'tsconfig.json', 'esbuild.mjs']) {
      fs.copyFileSync(path.join(repo, f), path.join(dir, f));
    }
    for (const d of ['media', 'src', 'resources', 'test/fixtures/workspace', 'demo']) {
      fs.cpSync(path.join(repo, d), path.join(dir, d), { recursive: true });
    }
    fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
    execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: dir, stdio: 'pipe' });
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds only the allowed files', () => {
    const listed = execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: dir, encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const unexpected = listed.filter((f) => !ALLOWED.has(f));
    assert.deepEqual(unexpected, []);
    for (const required of ALLOWED) assert.ok(listed.includes(required), `${required} is packaged`);
  });

  it('packages into a VSIX under 1 MB with minified bundles and no source maps', () => {
    const out = path.join(dir, 'acp-native.vsix');
    // README screenshots are relative (docs/images, not shipped); without a `repository` in package.json
    // vsce refuses to rewrite them, so they stay as they are (as `npm run package` does).
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out], { cwd: dir, stdio: 'pipe' });
    const size = fs.statSync(out).size;
    assert.ok(size < 1024 * 1024, `VSIX is ${size} bytes`);
    assert.ok(!fs.existsSync(path.join(dir, 'dist', 'extension.js.map')), 'no source map in production');
    assert.ok(!fs.existsSync(path.join(dir, 'media', 'chat', 'chat.js.map')), 'no webview source map in production');
  });
});
