import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  cacheDecision,
  compareVersions,
  listedDistributions,
  parseRegistry,
  RegistryFormatError,
  registryPlatform,
  updatesAvailable,
  usableDistributions,
} from '../../../../src/extension/agents/registry/model/registry';
import { archiveKind, binaryProgram, checkEntryType, installFolderName, packageCommandLine, safeEntryPath, UnsafeArchiveError } from '../../../../src/extension/agents/registry/model/registryInstall';

const agent = (over: Record<string, unknown> = {}) => ({
  id: 'demo',
  name: 'Demo',
  version: '1.0.0',
  description: 'A demo agent',
  authors: ['Someone'],
  license: 'MIT',
  distribution: { npx: { package: '@demo/agent@1.0.0', args: ['--acp'] } },
  ...over,
});

describe('ACP Registry format', () => {
  it('reads agents with every distribution kind and keeps their args and env', () => {
    const registry = parseRegistry(
      JSON.stringify({
        version: '1.0.0',
        agents: [
          agent(),
          agent({
            id: 'bin',
            distribution: {
              binary: { 'linux-x86_64': { archive: 'https://x.test/a.tar.gz', cmd: './a', args: ['acp'], env: { A: '1' } }, 'plan9-mips': { archive: 'https://x', cmd: 'x' } },
              uvx: { package: 'demo-py', cmd: 'demo-acp' },
            },
          }),
        ],
      }),
    );
    assert.deepEqual(registry.problems, []);
    assert.equal(registry.agents.length, 2);
    assert.deepEqual(registry.agents[0]?.distribution.npx, { package: '@demo/agent@1.0.0', args: ['--acp'], env: {} });
    const bin = registry.agents[1]!;
    assert.deepEqual(bin.distribution.binary?.['linux-x86_64'], { archive: 'https://x.test/a.tar.gz', cmd: './a', args: ['acp'], env: { A: '1' } });
    assert.deepEqual(Object.keys(bin.distribution.binary ?? {}), ['linux-x86_64'], 'an unknown platform is skipped, not an error');
    assert.deepEqual(listedDistributions(bin), ['binary', 'uvx']);
  });

  it('leaves out a bad entry, naming it and the field, and keeps the others', () => {
    const registry = parseRegistry(
      JSON.stringify({
        version: '1.0.0',
        agents: [
          agent({ id: 'bad-version', version: 3 }),
          agent({ id: 'no-dist', distribution: {} }),
          agent({ id: 'bad-archive', distribution: { binary: { 'linux-x86_64': { archive: 'file:///etc/passwd', cmd: './a' } } } }),
          agent({ id: 'bad-env', distribution: { npx: { package: 'x', env: { A: 1 } } } }),
          'not an object',
          agent(),
          agent({ name: 'Demo again' }),
        ],
      }),
    );
    assert.deepEqual(
      registry.agents.map((a) => a.name),
      ['Demo'],
    );
    assert.deepEqual(registry.problems, [
      'agents[0] ("bad-version").version: expected a version',
      'agents[1] ("no-dist").distribution: none of binary, npx, uvx',
      'agents[2] ("bad-archive").distribution.binary.linux-x86_64.archive: expected an http(s) URL',
      'agents[3] ("bad-env").distribution.npx.env.A: expected a string',
      'agents[4]: expected an object',
      'agents[6] ("demo"): the id appears twice',
    ]);
  });

  it('refuses a document that is not a registry with a clear error', () => {
    assert.throws(() => parseRegistry('<html>'), (e: Error) => e instanceof RegistryFormatError && /not valid JSON/.test(e.message));
    assert.throws(() => parseRegistry('[]'), /not a JSON object/);
    assert.throws(() => parseRegistry('{"version":"1"}'), /no "agents" array/);
  });

  it('reads the snapshot shipped in the VSIX without problems, with its date', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'resources', 'registry-snapshot.json'), 'utf8');
    const registry = parseRegistry(text);
    assert.deepEqual(registry.problems, []);
    assert.ok(registry.agents.length >= 10, `${registry.agents.length} agents`);
    assert.ok(registry.agents.some((a) => a.id === 'codex-acp' && a.distribution.binary?.['linux-x86_64']));
    assert.match((JSON.parse(text) as { snapshot: { date: string } }).snapshot.date, /^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('ACP Registry decisions', () => {
  it('maps Node platforms to registry platforms', () => {
    assert.equal(registryPlatform('linux', 'x64'), 'linux-x86_64');
    assert.equal(registryPlatform('darwin', 'arm64'), 'darwin-aarch64');
    assert.equal(registryPlatform('win32', 'x64'), 'windows-x86_64');
    assert.equal(registryPlatform('freebsd', 'x64'), undefined);
    assert.equal(registryPlatform('linux', 'ia32'), undefined);
  });

  it('prefers a binary for this platform, then npx, then uvx', () => {
    const [a] = parseRegistry(
      JSON.stringify({ agents: [agent({ distribution: { uvx: { package: 'p' }, npx: { package: 'n' }, binary: { 'darwin-aarch64': { archive: 'https://x/a.zip', cmd: 'a' } } } })] }),
    ).agents;
    assert.deepEqual(usableDistributions(a!, 'darwin-aarch64'), ['binary', 'npx', 'uvx']);
    assert.deepEqual(usableDistributions(a!, 'linux-x86_64'), ['npx', 'uvx']);
  });

  it('compares versions numerically, releases above pre-releases', () => {
    assert.ok(compareVersions('1.10.0', '1.9.2') > 0);
    assert.ok(compareVersions('0.9.2', '0.10.0') < 0);
    assert.equal(compareVersions('v1.2', '1.2.0'), 0);
    assert.ok(compareVersions('1.0.0', '1.0.0-beta.2') > 0);
    assert.ok(compareVersions('1.0.0-beta.10', '1.0.0-beta.2') > 0);
    assert.ok(compareVersions('2.0.0-rc.1', '1.9.9') > 0);
  });

  it('offers an update only for installed agents the registry has a newer version of', () => {
    const registry = parseRegistry(JSON.stringify({ agents: [agent({ id: 'a', version: '1.10.0' }), agent({ id: 'b', version: '2.0.0' }), agent({ id: 'c', version: '0.9.0' })] }));
    const updates = updatesAvailable(
      [
        { id: 'a', version: '1.9.0' },
        { id: 'b', version: '2.0.0' },
        { id: 'c', version: '1.0.0' },
        { id: 'gone', version: '1.0.0' },
      ],
      registry,
    );
    assert.deepEqual(
      updates.map((u) => [u.installed.id, u.installed.version, u.latest.version]),
      [['a', '1.9.0', '1.10.0']],
    );
  });

  it('uses a cached registry within the TTL, refreshes after it, fetches for another URL', () => {
    const url = 'https://r.test/registry.json';
    const hour = 3_600_000;
    assert.equal(cacheDecision(undefined, url, 0), 'missing');
    assert.equal(cacheDecision({ url, fetchedAt: 0 }, url, 5 * hour), 'fresh');
    assert.equal(cacheDecision({ url, fetchedAt: 0 }, url, 7 * hour), 'stale');
    assert.equal(cacheDecision({ url, fetchedAt: 10 * hour }, url, 0), 'stale', 'a clock set back does not keep a cache for ever');
    assert.equal(cacheDecision({ url: 'https://other.test/r.json', fetchedAt: 0 }, url, 1), 'missing');
  });
});

describe('registry launch commands', () => {
  const dist = { package: '@x/agent@1.2.3', args: ['--acp'], env: { X: '1' } };

  it('runs npx packages with -y, and --package when a cmd is named', () => {
    assert.deepEqual(packageCommandLine('npx', dist, 'linux'), { command: 'npx', args: ['-y', '@x/agent@1.2.3', '--acp'], env: { X: '1' } });
    assert.deepEqual(packageCommandLine('npx', { ...dist, cmd: 'x-acp' }, 'darwin').args, ['-y', '--package', '@x/agent@1.2.3', 'x-acp', '--acp']);
    assert.deepEqual(packageCommandLine('npx', dist, 'win32'), { command: 'cmd.exe', args: ['/d', '/s', '/c', 'npx.cmd', '-y', '@x/agent@1.2.3', '--acp'], env: { X: '1' } });
  });

  it('runs uvx packages, with --from when a cmd is named', () => {
    assert.deepEqual(packageCommandLine('uvx', { package: 'kimi-cli', args: ['acp'], env: {} }, 'linux'), { command: 'uvx', args: ['kimi-cli', 'acp'], env: {} });
    assert.deepEqual(packageCommandLine('uvx', { package: 'kimi-cli==1.9', cmd: 'kimi', args: ['acp'], env: {} }, 'linux').args, ['--from', 'kimi-cli==1.9', 'kimi', 'acp']);
  });

  it('tells archive formats from the URL path', () => {
    assert.equal(archiveKind('https://x/a-1.0.tar.gz'), 'tar.gz');
    assert.equal(archiveKind('https://x/a.TGZ?token=1'), 'tar.gz');
    assert.equal(archiveKind('https://x/a.tar.bz2'), 'tar.bz2');
    assert.equal(archiveKind('https://x/a.tbz2#x'), 'tar.bz2');
    assert.equal(archiveKind('https://x/a.zip'), 'zip');
    assert.equal(archiveKind('https://x/agent-linux-x64'), 'raw');
  });

  it('finds the program inside its install folder and refuses one outside', () => {
    const target = { archive: 'https://x/a.zip', cmd: './bin/agent', args: [], env: {} };
    assert.equal(binaryProgram('/store/demo/1.0.0', target), path.join('/store/demo/1.0.0', 'bin', 'agent'));
    assert.throws(() => binaryProgram('/store/demo/1.0.0', { ...target, cmd: '../../../bin/sh' }), UnsafeArchiveError);
    assert.throws(() => binaryProgram('/store/demo/1.0.0', { ...target, cmd: '/bin/sh' }), UnsafeArchiveError);
  });

  it('refuses versions and ids that would not stay one folder', () => {
    assert.equal(installFolderName('1.2.3-beta+build'), '1.2.3-beta+build');
    for (const bad of ['..', '../x', 'a/b', 'a\\b', '', '.hidden', '1..2']) assert.throws(() => installFolderName(bad), UnsafeArchiveError, bad);
  });
});

describe('archive entry safety', () => {
  it('keeps plain relative entries', () => {
    assert.equal(safeEntryPath('agent/bin/run'), 'agent/bin/run');
    assert.equal(safeEntryPath('./agent'), 'agent');
    assert.equal(safeEntryPath('./'), '');
    assert.equal(safeEntryPath('dir\\file.exe'), 'dir/file.exe');
    assert.equal(safeEntryPath('a..b/c'), 'a..b/c', 'dots inside a name are fine');
  });

  it('refuses absolute paths, drive letters and ..', () => {
    for (const bad of ['/etc/passwd', '\\Windows\\x', 'C:/x', 'c:x', '//host/share/x', '../evil', 'a/../../evil', 'a\\..\\..\\evil', 'a/..', 'nul\0byte']) {
      assert.throws(() => safeEntryPath(bad), UnsafeArchiveError, bad);
    }
  });

  it('installs files and folders only: no links, devices or fifos', () => {
    checkEntryType('a', 'file');
    checkEntryType('a/', 'directory');
    assert.throws(() => checkEntryType('a', 'symlink'), /symbolic link/);
    assert.throws(() => checkEntryType('a', 'hardlink'), /hard link/);
    assert.throws(() => checkEntryType('a', 'other'), /neither a file nor a folder/);
  });
});
