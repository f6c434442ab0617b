// ACP: Add Agent… in a real browser: the ACP Registry's agents in a QuickPick. The launcher
// (test/ui/run.mjs) points acpNative.registry.url at a loopback port (ACP_UI_REGISTRY_URL)
// that nothing serves at first, so the catalogue is the snapshot of the real registry shipped in
// the VSIX, with its date; then this test serves a registry there with an agent to add.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../harness/host/codeServer.mjs';
import { WAIT, runCommand, screenshot, workbenchPage, openWorkbench } from './workbench.mjs';

const snapshot = JSON.parse(readFileSync(join(repoRoot, 'resources/registry-snapshot.json'), 'utf8'));

describe('ACP Registry catalogue (real browser)', function () {
  this.timeout(90_000);
  const widget = () => workbenchPage().locator('.quick-input-widget');
  const placeholder = (prefix) =>
    workbenchPage().waitForFunction((p) => document.querySelector('.quick-input-widget input.input')?.getAttribute('placeholder')?.startsWith(p), prefix, { timeout: WAIT });
  let server;
  let scratch;

  before(async () => {
    await openWorkbench();
  });

  after(async () => {
    // The side bar this suite closed comes back for suites that run after it.
    await runCommand('ACP: Focus Chat').catch(() => undefined);
    await new Promise((/** @type {(value?: unknown) => void} */ resolve) => (server ? server.close(resolve) : resolve()));
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('lists the registry agents with version and license, and says the list is the offline snapshot of its date', async () => {
    const page = workbenchPage();
    // The catalogue alone in the README's picture, whatever earlier tests left open.
    // (Each command is offered only while what it closes is open.)
    for (const [open, command] of [
      ['.tabs-container .tab', 'View: Close All Editors'],
      ['.part.panel', 'View: Hide Panel'],
      ['.part.sidebar', 'View: Close Primary Side Bar'],
    ]) {
      if (!(await page.locator(open).first().isVisible())) continue;
      await runCommand(command);
      await widget().waitFor({ state: 'hidden', timeout: WAIT });
    }
    await runCommand('ACP: Add Agent…');
    await placeholder('Offline');
    const text = await widget().locator('input.input').getAttribute('placeholder');
    assert.match(text ?? '', new RegExp(`registry snapshot of ${snapshot.snapshot.date}`));
    const codex = snapshot.agents.find((a) => a.id === 'codex-acp');
    const row = widget().locator('.monaco-list-row', { hasText: 'Codex CLI' }).first();
    await row.waitFor({ timeout: WAIT });
    assert.match(await row.innerText(), new RegExp(`${codex.version.replace(/\./g, '\\.')} · ${codex.license}`));
    assert.match(await row.innerText(), /ACP adapter for OpenAI/);
    await widget().locator('.monaco-list-row', { hasText: 'Gemini CLI' }).first().waitFor({ timeout: WAIT });
    assert.equal(await widget().locator('.quick-input-title', { hasText: 'Add Agent from the ACP Registry' }).count(), 1);
    await screenshot('registry-catalogue');
    await page.keyboard.press('Escape');
    await widget().waitFor({ state: 'hidden', timeout: WAIT });
  });

  it('adds the agent picked: downloaded, started, and listed in Choose Agent', async () => {
    const page = workbenchPage();
    // A registry binary: a .tar.gz whose program runs the bundled agent (scripted brain).
    scratch = mkdtempSync(join(tmpdir(), 'acp-ui-registry-'));
    mkdirSync(join(scratch, 'pkg', 'bin'), { recursive: true });
    writeFileSync(
      join(scratch, 'pkg', 'bin', 'agent'),
      `#!/bin/sh\nELECTRON_RUN_AS_NODE=1 exec "${process.execPath}" "${join(repoRoot, 'dist', 'agent.js')}" --state-dir "${join(scratch, 'state')}" "$@"\n`,
      { mode: 0o755 },
    );
    const archive = execFileSync('tar', ['-czf', '-', '-C', join(scratch, 'pkg'), 'bin']);
    assert.ok(process.env.ACP_UI_REGISTRY_URL, 'the launcher names the registry URL');
    const url = new URL(process.env.ACP_UI_REGISTRY_URL);
    const binary = Object.fromEntries(
      ['linux-x86_64', 'linux-aarch64', 'darwin-aarch64', 'darwin-x86_64'].map((p) => [p, { archive: `${url.origin}/ui-agent.tar.gz`, cmd: './bin/agent' }]),
    );
    const registry = JSON.stringify({
      version: '1.0.0',
      agents: [{ id: 'ui-test-agent', name: 'UI Test Agent', version: '2.0.0', description: 'The bundled agent, packaged as a registry binary', authors: [], license: 'MIT', distribution: { binary } }],
    });
    server = createServer((req, res) => {
      const body = req.url === url.pathname ? registry : req.url === '/ui-agent.tar.gz' ? archive : undefined;
      if (body === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-length': Buffer.byteLength(body) }).end(body);
    });
    await new Promise((resolve) => server.listen(Number(url.port), '127.0.0.1', resolve));

    await runCommand('ACP: Add Agent…');
    await placeholder('Pick an agent');
    const row = widget().locator('.monaco-list-row', { hasText: 'UI Test Agent' }).first();
    await row.waitFor({ timeout: WAIT });
    assert.match(await row.innerText(), /2\.0\.0 · MIT/);
    await row.click();
    // Started as the default agent: the status bar names it.
    await page.locator('.statusbar-item', { hasText: 'UI Test Agent: idle' }).first().waitFor({ timeout: WAIT });

    await runCommand('ACP: Choose Agent');
    const listed = widget().locator('.monaco-list-row', { hasText: 'UI Test Agent' }).first();
    await listed.waitFor({ timeout: WAIT });
    assert.match(await listed.innerText(), /2\.0\.0 · ACP Registry \(binary\)/);
    assert.match(await listed.innerText(), /current/);
    // Back to the bundled agent for whatever runs next.
    await widget().locator('.monaco-list-row', { hasText: 'Bundled agent: scripted' }).first().click();
    await page.locator('.statusbar-item', { hasText: 'ACP Native agent: idle' }).first().waitFor({ timeout: WAIT });
  });
});
