// The registry's network and disk side in plain Node: a loopback HTTP server (127.0.0.1) serves
// the registry and archives built by the test; installs go to a temporary folder.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRegistry, type RegistryAgent } from '../../../../src/extension/agents/registry/model/registry';
import { RegistryInstaller, RunnerMissingError } from '../../../../src/extension/agents/registry/installer';
import { RegistrySource } from '../../../../src/extension/agents/registry/registrySource';
import { tarBz2, tarGz, zip, type ArchiveEntry } from '../../../support/archiveBuilder';

const SCRIPT = '#!/bin/sh\necho "hello from the archive"\n';
const log = { info: () => undefined, warn: () => undefined };

function serve(files: Map<string, Buffer | string>): Promise<{ base: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = files.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ base: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) });
    }),
  );
}

function binaryAgent(id: string, archive: string, cmd = './bin/agent', version = '1.0.0'): RegistryAgent {
  const [agent] = parseRegistry(
    JSON.stringify({
      agents: [{ id, name: `Agent ${id}`, version, description: 'test', license: 'MIT', distribution: { binary: { 'linux-x86_64': { archive, cmd, args: ['--acp'], env: { FROM_REGISTRY: '1' } } } } }],
    }),
  ).agents;
  return agent!;
}

const agentFiles: ArchiveEntry[] = [
  { name: 'bin/', type: 'directory' },
  { name: 'bin/agent', content: SCRIPT, mode: 0o644 },
  { name: 'share/readme.txt', content: 'docs' },
];

describe('registry installs (loopback server)', function () {
  this.timeout(20_000);
  let tmp: string;
  let server: Awaited<ReturnType<typeof serve>>;
  const files = new Map<string, Buffer | string>();
  const installer = () => new RegistryInstaller({ root: path.join(tmp, 'agents'), log, platform: 'linux', arch: 'x64' });
  const listing = () => (fs.existsSync(path.join(tmp, 'agents')) ? fs.readdirSync(path.join(tmp, 'agents'), { recursive: true }).map(String).sort() : []);

  before(async () => {
    files.set('/agent.tar.gz', await tarGz(agentFiles));
    files.set('/agent.tar.bz2', await tarBz2(agentFiles));
    files.set('/agent.zip', zip(agentFiles));
    files.set('/agent-raw', SCRIPT);
    files.set('/dotdot.tar.gz', await tarGz([{ name: 'bin/agent', content: SCRIPT }, { name: '../escaped.txt', content: 'x' }]));
    files.set('/absolute.tar.gz', await tarGz([{ name: 'bin/agent', content: SCRIPT }, { name: '/tmp/acp-absolute-escape.txt', content: 'x' }]));
    files.set('/symlink.tar.gz', await tarGz([{ name: 'bin/agent', content: SCRIPT }, { name: 'bin/out', type: 'symlink', target: '../../../../..' }]));
    files.set('/hardlink.tar.gz', await tarGz([{ name: 'bin/agent', content: SCRIPT }, { name: 'bin/passwd', type: 'link', target: '/etc/passwd' }]));
    files.set('/dotdot.zip', zip([{ name: 'bin/agent', content: SCRIPT }, { name: '../escaped.txt', content: 'x' }]));
    files.set('/symlink.zip', zip([{ name: 'bin/agent', content: SCRIPT }, { name: 'bin/out', type: 'symlink', target: '/etc' }]));
    files.set('/not-gzip.tar.gz', 'this is not gzip');
    server = await serve(files);
  });

  after(() => server.close());
  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-registry-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  for (const [label, file] of [
    ['.tar.gz', '/agent.tar.gz'],
    ['.tar.bz2', '/agent.tar.bz2'],
    ['.zip', '/agent.zip'],
  ] as const) {
    it(`installs a ${label} binary under <id>/<version>/ and runs its program`, async () => {
      const progress: string[] = [];
      const added = await installer().install(binaryAgent('demo', server.base + file), (p) => progress.push(p.message ?? ''));
      const program = path.join(tmp, 'agents', 'demo', '1.0.0', 'bin', 'agent');
      assert.equal(added.command, program);
      assert.deepEqual(added.args, ['--acp']);
      assert.deepEqual(added.env, { FROM_REGISTRY: '1' });
      assert.equal(added.distribution, 'binary');
      assert.equal(fs.readFileSync(path.join(tmp, 'agents', 'demo', '1.0.0', 'share', 'readme.txt'), 'utf8'), 'docs');
      assert.equal(execFileSync(program, { encoding: 'utf8' }), 'hello from the archive\n', 'cmd was made executable');
      assert.ok(progress.some((m) => m.startsWith('Downloading')));
      assert.deepEqual(listing(), ['demo', 'demo/1.0.0', 'demo/1.0.0/bin', 'demo/1.0.0/bin/agent', 'demo/1.0.0/share', 'demo/1.0.0/share/readme.txt'], 'no download or staging left');
    });
  }

  it('installs a raw binary under the name of its cmd', async () => {
    const added = await installer().install(binaryAgent('raw', server.base + '/agent-raw', './raw-agent'));
    assert.equal(execFileSync(added.command, { encoding: 'utf8' }), 'hello from the archive\n');
  });

  it('reuses an installed version, and removes the old version when a newer one is installed', async () => {
    const inst = installer();
    await inst.install(binaryAgent('demo', server.base + '/agent.tar.gz'));
    const before = server.hits.length;
    await inst.install(binaryAgent('demo', server.base + '/agent.tar.gz'));
    assert.equal(server.hits.length, before, 'no second download');
    const added = await inst.install(binaryAgent('demo', server.base + '/agent.zip', './bin/agent', '1.1.0'));
    assert.equal(added.version, '1.1.0');
    assert.deepEqual(fs.readdirSync(path.join(tmp, 'agents', 'demo')), ['1.1.0']);
  });

  for (const [label, file, reason] of [
    ['a ../ entry (tar)', '/dotdot.tar.gz', /climbs out of its folder/],
    ['an absolute entry (tar)', '/absolute.tar.gz', /absolute path/],
    ['a symlink pointing out (tar)', '/symlink.tar.gz', /symbolic link/],
    ['a hard link (tar)', '/hardlink.tar.gz', /hard link/],
    ['a ../ entry (zip)', '/dotdot.zip', /\.\./],
    ['a symlink (zip)', '/symlink.zip', /symbolic link/],
    ['a corrupt archive', '/not-gzip.tar.gz', /incorrect header check|Could not install/],
    ['a missing archive', '/missing.zip', /HTTP 404/],
  ] as const) {
    it(`installs nothing from ${label}`, async () => {
      await assert.rejects(installer().install(binaryAgent('evil', server.base + file)), (e: Error) => {
        assert.match(e.message, /^Could not install Agent evil 1\.0\.0 from http:\/\/127\.0\.0\.1:\d+\//);
        assert.match(e.message, reason);
        return true;
      });
      assert.deepEqual(listing(), ['evil'], 'nothing installed, nothing left behind');
      assert.ok(!fs.existsSync(path.join(tmp, 'escaped.txt')));
      assert.ok(!fs.existsSync(path.join(tmp, 'agents', 'escaped.txt')));
      assert.ok(!fs.existsSync('/tmp/acp-absolute-escape.txt'));
    });
  }

  it('resolves npx and uvx entries to their command lines when the runner is on PATH', async () => {
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    for (const runner of ['npx', 'uvx']) fs.writeFileSync(path.join(bin, runner), '#!/bin/sh\n', { mode: 0o755 });
    const [npxAgent, uvxAgent] = parseRegistry(
      JSON.stringify({
        agents: [
          { id: 'n', name: 'N', version: '1.0.0', distribution: { npx: { package: '@n/agent@1.0.0', args: ['--acp'], env: { N: '1' } } } },
          { id: 'u', name: 'U', version: '2.0.0', distribution: { uvx: { package: 'u-agent', cmd: 'u-acp' } } },
        ],
      }),
    ).agents;
    const inst = new RegistryInstaller({ root: path.join(tmp, 'agents'), log, platform: 'linux', arch: 'x64', env: { PATH: bin } });
    assert.deepEqual(await inst.install(npxAgent!), { id: 'n', name: 'N', version: '1.0.0', description: '', distribution: 'npx', command: 'npx', args: ['-y', '@n/agent@1.0.0', '--acp'], env: { N: '1' } });
    const u = await inst.install(uvxAgent!);
    assert.deepEqual([u.command, ...u.args], ['uvx', '--from', 'u-agent', 'u-acp']);
  });

  it('says what to install when npx or uvx is missing', async () => {
    const [npxAgent] = parseRegistry(JSON.stringify({ agents: [{ id: 'n', name: 'N', version: '1.0.0', distribution: { npx: { package: 'n' } } }] })).agents;
    const inst = new RegistryInstaller({ root: path.join(tmp, 'agents'), log, platform: 'linux', arch: 'x64', env: { PATH: path.join(tmp, 'nothing-here') } });
    await assert.rejects(inst.install(npxAgent!), (e: Error) => e instanceof RunnerMissingError && /npx, which was not found on PATH.*install Node\.js/.test(e.message));
  });

  it('says when an agent has nothing for this computer', async () => {
    const inst = new RegistryInstaller({ root: path.join(tmp, 'agents'), log, platform: 'darwin', arch: 'arm64' });
    await assert.rejects(inst.install(binaryAgent('demo', server.base + '/agent.zip')), /no distribution for this computer \(darwin-aarch64\)/);
  });
});

describe('registry source (loopback server)', function () {
  this.timeout(20_000);
  let tmp: string;
  const snapshotFile = path.join(__dirname, '..', '..', '..', '..', 'resources', 'registry-snapshot.json');
  const body = JSON.stringify({ version: '1.0.0', agents: [{ id: 'served', name: 'Served', version: '1.0.0', distribution: { npx: { package: 'served' } } }] });

  beforeEach(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-registry-src-'))));
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('fetches, then serves from the cache within the TTL, then refreshes in the background', async () => {
    const server = await serve(new Map([['/registry.json', body]]));
    try {
      let now = 1_000;
      const refreshed: string[] = [];
      const source = new RegistrySource({
        cacheDir: tmp,
        snapshotFile,
        url: () => `${server.base}/registry.json`,
        log,
        now: () => now,
        ttlMs: 10_000,
        onBackgroundRefresh: (l) => refreshed.push(l.origin),
      });
      const first = await source.load();
      assert.equal(first.origin, 'network');
      assert.deepEqual(first.registry.agents.map((a) => a.id), ['served']);
      now += 5_000;
      assert.equal((await source.load()).origin, 'cache');
      assert.equal(server.hits.length, 1);
      now += 10_000;
      const stale = await source.load();
      assert.equal(stale.origin, 'cache', 'a stale cache answers at once');
      await source.refresh();
      assert.equal(server.hits.length, 2, 'and is refreshed in the background');
      assert.deepEqual(refreshed, ['network']);
    } finally {
      await server.close();
    }
  });

  it('falls back to the shipped snapshot, with its date, when the server is down', async () => {
    const server = await serve(new Map());
    const url = `${server.base}/registry.json`;
    await server.close();
    const loaded = await new RegistrySource({ cacheDir: tmp, snapshotFile, url: () => url, log }).load();
    assert.equal(loaded.origin, 'snapshot');
    assert.match(loaded.offlineReason ?? '', /ECONNREFUSED/);
    assert.equal(loaded.date.toISOString().slice(0, 10), '2026-02-07');
    assert.ok(loaded.registry.agents.some((a) => a.id === 'codex-acp'));
  });

  it('falls back when the server answers something that is not a registry', async () => {
    const server = await serve(new Map([['/registry.json', '<html>maintenance</html>']]));
    try {
      const loaded = await new RegistrySource({ cacheDir: tmp, snapshotFile, url: () => `${server.base}/registry.json`, log }).load();
      assert.equal(loaded.origin, 'snapshot');
      assert.match(loaded.offlineReason ?? '', /not valid JSON/);
    } finally {
      await server.close();
    }
  });
});
