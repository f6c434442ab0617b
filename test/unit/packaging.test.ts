import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as nodeModule from 'node:module';

const repo = path.resolve(__dirname, '..', '..');
const vsce = path.join(repo, 'node_modules', '@vscode', 'vsce', 'vsce');
const ALLOWED = new Set([
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'dist/extension.js',
  'dist/agent.js',
  // Lazy chunks (esbuild.mjs): code loaded on first use, not at startup.
  'dist/agentMcp.js',
  'dist/registryArchives.js',
  'dist/acpSdk.js',
  'media/acp.svg',
  // The Marketplace icon (its SVG source stays out).
  'media/icon.png',
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

  it('has a Marketplace-ready manifest: a 128×128 PNG icon, repository, bugs, homepage, banner', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as Record<string, unknown> & {
      icon: string;
      repository: { url: string };
      bugs: { url: string };
      homepage: string;
      galleryBanner: { color: string; theme: string };
    };
    const png = fs.readFileSync(path.join(repo, manifest.icon));
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.match(manifest.repository.url, /^https:\/\//);
    assert.match(manifest.bugs.url, /^https:\/\//);
    assert.match(manifest.homepage, /^https:\/\//);
    assert.match(manifest.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner.theme));
  });

  it('packages into a VSIX under 1 MB with minified bundles and no source maps', () => {
    const out = path.join(dir, 'acp-native.vsix');
    // README screenshots are relative (docs/images, not shipped); they stay as they are (as
    // `npm run package` does) rather than being rewritten to the repository's raw URLs.
    execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--out', out], { cwd: dir, stdio: 'pipe' });
    const size = fs.statSync(out).size;
    assert.ok(size < 1024 * 1024, `VSIX is ${size} bytes`);
    assert.ok(!fs.existsSync(path.join(dir, 'dist', 'extension.js.map')), 'no source map in production');
    assert.ok(!fs.existsSync(path.join(dir, 'media', 'chat', 'chat.js.map')), 'no webview source map in production');
  });

  it('keeps what startup does not need out of the bundles it evaluates: zod locales, the MCP SDK, the extension\'s ACP SDK', () => {
    const agent = fs.readFileSync(path.join(dir, 'dist', 'agent.js'), 'latin1');
    const mcp = fs.readFileSync(path.join(dir, 'dist', 'agentMcp.js'), 'latin1');
    // zod's German locale: one of the 40-odd locales `import { z } from 'zod'` would keep.
    assert.ok(!agent.includes('Ung\\xFCltige Eingabe'), 'no zod locale in dist/agent.js');
    // The MCP client (its streamable-HTTP header) lives in its lazily imported chunk only.
    assert.ok(!agent.includes('mcp-session-id'), 'no MCP SDK in dist/agent.js');
    assert.ok(mcp.includes('mcp-session-id'), 'the MCP SDK is in dist/agentMcp.js');
    assert.match(agent, /import\("\.\/agentMcp\.js"\)/, 'dist/agent.js imports its chunk on demand');
    const extension = fs.readFileSync(path.join(dir, 'dist', 'extension.js'), 'latin1');
    // yauzl's own error text: the zip reader is in the archives chunk, loaded on the first install.
    assert.ok(!extension.includes('invalid local file header signature'), 'no yauzl in dist/extension.js');
    assert.match(extension, /import\("\.\/registryArchives\.js"\)/, 'dist/extension.js imports the archive readers on demand');
    // The ACP SDK with its zod schemas (zod's own error class) is read from its chunk once an agent starts.
    assert.ok(!extension.includes('ZodError'), 'no zod (the ACP SDK\'s schemas) in dist/extension.js');
    assert.ok(fs.readFileSync(path.join(dir, 'dist', 'acpSdk.js'), 'latin1').includes('ZodError'), 'the ACP SDK is in dist/acpSdk.js');
    assert.match(extension, /require\("\.\/acpSdk\.js"\)/, 'dist/extension.js loads the ACP SDK on demand');
  });

  it('evaluates dist/extension.js without loading the ACP SDK: its chunk waits for the first agent', () => {
    // Module evaluation only (no activate): any top-level read of an SDK value would load the chunk.
    const bundle = path.join(dir, 'dist', 'extension.js');
    const Module = nodeModule.Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
    const requireHere = nodeModule.createRequire(__filename);
    const load = Module._load;
    const loaded: string[] = [];
    const stub: object = new Proxy(function () {}, { get: (_target, key) => (key === '__esModule' ? false : stub), apply: () => stub, construct: () => stub });
    Module._load = (request, parent, isMain) => {
      if (request === 'vscode') return stub;
      if (request.endsWith('acpSdk.js')) loaded.push(request);
      return load(request, parent, isMain);
    };
    try {
      requireHere(bundle);
    } finally {
      Module._load = load;
      delete requireHere.cache[requireHere.resolve(bundle)];
    }
    assert.deepEqual(loaded, [], 'dist/acpSdk.js was loaded while dist/extension.js evaluated');
  });
});
