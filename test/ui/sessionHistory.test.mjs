// @ts-check
// Session History's item buttons in a real browser: the quick pick's Delete asks in a modal and
// the session leaves the list; Export as Markdown opens the conversation in an untitled editor.
import * as assert from 'node:assert/strict';
import { WAIT, chat, openWorkbench, palette, turn, workbenchPage } from './workbench.mjs';

/** The Session History row that shows this text. @param {string} text */
function historyRow(text) {
  return workbenchPage().locator('.quick-input-widget .monaco-list-row', { hasText: text }).first();
}

describe('Session History buttons (real browser)', function () {
  this.timeout(120_000);

  before(async () => {
    await openWorkbench();
    await palette('ACP: Focus Chat');
    await chat().locator('textarea.prompt').waitFor({ state: 'visible', timeout: 60_000 });
  });

  it('deletes a session after the modal question, and exports one as Markdown', async () => {
    const page = workbenchPage();
    // Two sessions of the bundled (scripted) agent, each with its own first prompt as its title.
    await palette('ACP: New Session');
    await turn('/read src/greet.ts doomed-walrus');
    await palette('ACP: New Session');
    await turn('/read src/greet.ts exported-narwhal');

    await palette('ACP: Session History');
    const doomed = historyRow('doomed-walrus');
    await doomed.waitFor({ timeout: WAIT });
    await doomed.hover();
    await doomed.locator('.action-label[aria-label="Delete"], a[title="Delete"]').first().click({ timeout: WAIT });
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: WAIT });
    assert.match(await dialog.innerText(), /Delete the session "\/read src\/greet\.ts doomed-walrus"\?/);
    await dialog.locator('a.monaco-button, button', { hasText: /^Delete$/ }).first().click();
    await doomed.waitFor({ state: 'detached', timeout: WAIT });
    const exported = historyRow('exported-narwhal');
    await exported.waitFor({ timeout: WAIT });

    await exported.hover();
    await exported.locator('.action-label[aria-label="Export as Markdown"], a[title="Export as Markdown"]').first().click({ timeout: WAIT });
    await page.locator('.monaco-editor .view-line', { hasText: 'exported-narwhal' }).first().waitFor({ timeout: WAIT });
    await page.locator('.tabs-container .tab', { hasText: 'Untitled' }).first().waitFor({ timeout: WAIT });
    // The export is unsaved text: closed without saving, so no later suite is asked about it.
    await palette('View: Revert and Close Editor');
    await page.locator('.tabs-container .tab', { hasText: 'Untitled' }).first().waitFor({ state: 'detached', timeout: WAIT });
  });
});
