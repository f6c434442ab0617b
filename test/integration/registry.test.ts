import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { tarGz, zip, type ArchiveEntry } from '../support/archiveBuilder';
import { getApi, isMultiRoot, setSetting, testAgentPath, within } from './support/helpers';

/**
 * The ACP Registry as the agent catalogue, in the real extension host: a registry and agent
 * archives served by this test on 127.0.0.1, installed through the API and started for real.
 */
describe('ACP Registry agents', function () {
  this.timeout(120_000);
  let api: AcpNativeApi;
  let server: http.Server;
  let base: string;
  const files = new Map<string, Buffer | string>();
  // Made in before(): a describe body runs even when --grep filters the suite out, and after() then does not.
  let scratch = '';
  const marker = (id: string) => path.join(scratch, `${id}.marker`);
  const escapes = {
    dotdot: `acp-registry-escape-${process.pid}.txt`,
    absolute: path.join(os.tmpdir(), `acp-registry-absolute-${process.pid}.txt`),
    viaLink: path.join(os.tmpdir(), `acp-registry-via-link-${process.pid}.txt`),
  };

  /** A wrapper program, as a registry binary would be: records how it was run, then runs the test agent. */
  const wrapper = [
    '#!/bin/sh',
    'printf "%s\\n" "$0" "$*" "$FROM_REGISTRY" "$OVERRIDE" > "$ACP_REGISTRY_MARKER"',
    `exec "${process.execPath}" "${testAgentPath('thirdPartyAgent')}" "$@"`,
    '',
  ].join('\n');
  const agentFiles: ArchiveEntry[] = [{ name: 'bin/', type: 'directory' }, { name: 'bin/agent', content: wrapper, mode: 0o644 }];

  const binaryEntry = (id: string, archive: string) => ({
    id,
    name: `Registry ${id}`,
    version: '1.0.0',
    description: `The test agent from ${archive}`,
    authors: ['ACP Native tests'],
    license: 'MIT',
    distribution: {
      binary: Object.fromEntries(
        ['linux-x86_64', 'linux-aarch64', 'darwin-aarch64', 'darwin-x86_64'].map((p) => [
          p,
          { archive: `${base}${archive}`, cmd: './bin/agent', args: ['--acp'], env: { ELECTRON_RUN_AS_NODE: '1', FROM_REGISTRY: id, ACP_REGISTRY_MARKER: marker(id) } },
        ]),
      ),
    },
  });

  before(async function () {
    if (isMultiRoot() || process.platform === 'win32') this.skip();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-registry-it-'));
    api = await getApi();
    server = http.createServer((req, res) => {
      const body = files.get(req.url ?? '');
      if (body === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // An npm package in a folder: npx runs it without reaching the npm registry.
    const pkg = path.join(scratch, 'npx-agent');
    fs.mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'acp-registry-npx-agent', version: '1.0.0', bin: { 'npx-agent': 'bin/agent.js' } }));
    fs.writeFileSync(
      path.join(pkg, 'bin', 'agent.js'),
      `#!/usr/bin/env node\nrequire('fs').writeFileSync(${JSON.stringify(marker('test-npx'))}, process.argv.slice(2).join(' '));\nrequire(${JSON.stringify(testAgentPath('thirdPartyAgent'))});\n`,
      { mode: 0o755 },
    );
    files.set('/agent.tar.gz', await tarGz(agentFiles));
    files.set('/agent.zip', zip(agentFiles));
    files.set('/dotdot.tar.gz', await tarGz([...agentFiles, { name: `../../${escapes.dotdot}`, content: 'escaped' }]));
    files.set('/absolute.tar.gz', await tarGz([...agentFiles, { name: escapes.absolute, content: 'escaped' }]));
    files.set('/symlink.zip', zip([...agentFiles, { name: 'tmp', type: 'symlink', target: os.tmpdir() }, { name: `tmp/${path.basename(escapes.viaLink)}`, content: 'escaped' }]));
    files.set(
      '/registry.json',
      JSON.stringify({
        version: '1.0.0',
        agents: [
          binaryEntry('test-tgz', '/agent.tar.gz'),
          binaryEntry('test-zip', '/agent.zip'),
          binaryEntry('evil-dotdot', '/dotdot.tar.gz'),
          binaryEntry('evil-absolute', '/absolute.tar.gz'),
          binaryEntry('evil-symlink', '/symlink.zip'),
          {
            id: 'test-npx',
            name: 'Registry npx agent',
            version: '1.0.0',
            description: 'The test agent as an npm package',
            authors: [],
            license: 'MIT',
            distribution: { npx: { package: pkg, cmd: 'npx-agent', args: ['--acp'] } },
          },
        ],
      }),
    );
    await setSetting('acpNative.registry.url', `${base}/registry.json`);
  });

  after(async () => {
    await api?.stopAgent();
    await setSetting('acpNative.registry.url', undefined);
    await setSetting('acpNative.registry.overrides', undefined);
    await setSetting('acpNative.defaultAgent', undefined);
    server?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('lists the agents of the registry at acpNative.registry.url, with the distributions usable here', async () => {
    const agents = await api.registryAgents();
    assert.deepEqual(
      agents.map((a) => [a.id, a.version, a.distributions.join(',')]),
      [
        ['test-tgz', '1.0.0', 'binary'],
        ['test-zip', '1.0.0', 'binary'],
        ['evil-dotdot', '1.0.0', 'binary'],
        ['evil-absolute', '1.0.0', 'binary'],
        ['evil-symlink', '1.0.0', 'binary'],
        ['test-npx', '1.0.0', 'npx'],
      ],
    );
  });

  for (const id of ['test-tgz', 'test-zip']) {
    it(`installs a binary agent from its ${id === 'test-tgz' ? '.tar.gz' : '.zip'} archive and starts it as the default agent`, async () => {
      await setSetting('acpNative.registry.overrides', { [id]: { args: ['--from-override'], env: { OVERRIDE: 'kept' } } });
      const name = await within('addRegistryAgent', api.addRegistryAgent(id));
      assert.equal(name, `Registry ${id}`);
      await within('useAgent', api.useAgent(name));
      // A session exists: the extracted program answered initialize and session/new.
      assert.ok(api.activeSessionId, 'a session started');
      assert.equal(vscode.workspace.getConfiguration('acpNative').get('defaultAgent'), name);
      const [program, args, fromRegistry, override] = fs.readFileSync(marker(id), 'utf8').split('\n');
      assert.match(program ?? '', new RegExp(`[/\\\\]agents[/\\\\]${id}[/\\\\]1\\.0\\.0[/\\\\]bin[/\\\\]agent$`), 'run from <global storage>/agents/<id>/<version>/');
      assert.equal(args, '--acp --from-override', "the registry's args, then the user's");
      assert.equal(fromRegistry, id, "the registry's env");
      assert.equal(override, 'kept', "the user's env");
      // The agent answers a turn.
      assert.equal(await within('a turn', api.prompt('early-output')), 'end_turn');
    });
  }

  it('runs an npx agent with npx --package <package> <cmd> [args]', async () => {
    const name = await within('addRegistryAgent', api.addRegistryAgent('test-npx'));
    await within('useAgent', api.useAgent(name), 60_000);
    assert.ok(api.activeSessionId);
    assert.equal(fs.readFileSync(marker('test-npx'), 'utf8'), '--acp');
  });

  for (const [id, reason] of [
    ['evil-dotdot', /climbs out of its folder/],
    ['evil-absolute', /absolute path/],
    ['evil-symlink', /symbolic link/],
  ] as const) {
    it(`installs nothing from a malicious archive (${id})`, async () => {
      await assert.rejects(api.addRegistryAgent(id), reason);
      await assert.rejects(api.useAgent(`Registry ${id}`), /No agent named/, 'not added');
      // <global storage>/agents, from where the good agent ran: <agents>/test-tgz/1.0.0/bin/agent.
      let installed = fs.readFileSync(marker('test-tgz'), 'utf8').split('\n')[0] ?? '';
      for (let i = 0; i < 4; i++) installed = path.dirname(installed);
      assert.deepEqual(fs.existsSync(path.join(installed, id)) ? fs.readdirSync(path.join(installed, id)) : [], [], 'no version folder, no leftovers');
      for (const escaped of [path.join(installed, escapes.dotdot), path.join(path.dirname(installed), escapes.dotdot), escapes.absolute, escapes.viaLink]) {
        assert.ok(!fs.existsSync(escaped), `${escaped} was not written`);
      }
    });
  }

  it('installs a newer registry version of an added agent and removes the old one', async () => {
    const newer = { ...binaryEntry('test-tgz', '/agent.tar.gz'), version: '1.1.0' };
    files.set('/registry-newer.json', JSON.stringify({ version: '1.0.0', agents: [newer] }));
    // Another URL: the cached registry of the first one is not used for it.
    await setSetting('acpNative.registry.url', `${base}/registry-newer.json`);
    try {
      const name = await within('addRegistryAgent', api.addRegistryAgent('test-tgz'));
      await within('useAgent', api.useAgent(name));
      const program = fs.readFileSync(marker('test-tgz'), 'utf8').split('\n')[0] ?? '';
      assert.match(program, /[/\\]test-tgz[/\\]1\.1\.0[/\\]bin[/\\]agent$/);
      assert.deepEqual(fs.readdirSync(path.dirname(path.dirname(path.dirname(program)))), ['1.1.0'], 'the old version is gone');
    } finally {
      await setSetting('acpNative.registry.url', `${base}/registry.json`);
    }
  });

  it('removes an added agent: its sessions close, it stops, its files go, and the bundled agent is the default again', async () => {
    const name = 'Registry test-tgz';
    await within('useAgent', api.useAgent(name));
    const session = api.activeSessionId;
    assert.ok(session && api.runningAgents().includes(name));
    const agentDir = path.dirname(path.dirname(path.dirname(fs.readFileSync(marker('test-tgz'), 'utf8').split('\n')[0] ?? '')));
    assert.ok(fs.existsSync(agentDir), `${agentDir} is installed`);
    await within('removeRegistryAgent', api.removeRegistryAgent('test-tgz'));
    assert.equal(api.sessions().some((s) => s.agent === name), false, 'its sessions are closed');
    assert.equal(api.runningAgents().includes(name), false, 'it is stopped');
    assert.equal(fs.existsSync(agentDir), false, 'its files are deleted');
    assert.notEqual(vscode.workspace.getConfiguration('acpNative').get('defaultAgent'), name);
    await assert.rejects(api.useAgent(name), /No agent named/, 'Choose Agent no longer has it');
    await assert.rejects(api.removeRegistryAgent('test-tgz'), /No agent "test-tgz" was added/);
    // It can be added again.
    assert.equal(await within('addRegistryAgent again', api.addRegistryAgent('test-tgz')), name);
  });

  it('falls back to the snapshot shipped with the extension when the registry cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await setSetting('acpNative.registry.url', `http://127.0.0.1:${port}/registry.json`);
    try {
      const agents = await within('registryAgents', api.registryAgents());
      assert.ok(agents.some((a) => a.id === 'codex-acp' && a.name === 'Codex CLI'), JSON.stringify(agents.map((a) => a.id)));
      assert.ok(agents.some((a) => a.id === 'gemini' && a.distributions.includes('npx')));
    } finally {
      await setSetting('acpNative.registry.url', `${base}/registry.json`);
    }
  });
});
