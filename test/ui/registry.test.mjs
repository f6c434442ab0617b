// ACP: Add Agent… in a real browser: the ACP Registry's agents in a QuickPick. The launcher
// (test/host/run-ui.mjs) points acpNative.registry.url at a closed port, so the catalogue is the
// snapshot of the real registry shipped in the VSIX, with its date.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../host/codeServer.mjs';
import { WAIT, runCommand, screenshot, ui } from './workbench.mjs';

const snapshot = JSON.parse(readFileSync(join(repoRoot, 'resources/registry-snapshot.json'), 'utf8'));

describe('ACP Registry catalogue (real browser)', function () {
  this.timeout(90_000);

  before(async () => {
    const { page } = ui;
    if (!(await page.locator('.monaco-workbench').count())) {
      await page.goto(ui.url, { waitUntil: 'domcontentloaded' });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    }
    await page.locator('.part.activitybar a.action-label[aria-label="ACP"]').first().waitFor({ state: 'visible', timeout: 60_000 });
  });

  it('lists the registry agents with version and license, and says the list is the offline snapshot of its date', async () => {
    const { page } = ui;
    await runCommand('ACP: Add Agent…');
    const widget = page.locator('.quick-input-widget');
    const input = widget.locator('input.input');
    await page.waitForFunction(
      () => document.querySelector('.quick-input-widget input.input')?.getAttribute('placeholder')?.startsWith('Offline'),
      undefined,
      { timeout: WAIT },
    );
    const placeholder = await input.getAttribute('placeholder');
    assert.match(placeholder, new RegExp(`registry snapshot of ${snapshot.snapshot.date}`));
    const codex = snapshot.agents.find((a) => a.id === 'codex-acp');
    const row = widget.locator('.monaco-list-row', { hasText: 'Codex CLI' }).first();
    await row.waitFor({ timeout: WAIT });
    assert.match(await row.innerText(), new RegExp(`${codex.version.replace(/\./g, '\\.')} · ${codex.license}`));
    assert.match(await row.innerText(), /ACP adapter for OpenAI/);
    await widget.locator('.monaco-list-row', { hasText: 'Gemini CLI' }).first().waitFor({ timeout: WAIT });
    assert.equal(await widget.locator('.quick-input-title', { hasText: 'Add Agent from the ACP Registry' }).count(), 1);
    await screenshot('registry-catalogue');
    await page.keyboard.press('Escape');
    await widget.waitFor({ state: 'hidden', timeout: WAIT });
  });
});
