// @ts-check
// Several sessions of several agents at once, in a real browser: the bundled (scripted) agent and
// the third-party test agent (harness/agents/thirdPartyAgent.ts, configured by test/ui/run.mjs)
// run side by side. A question of one agent arrives while the user looks at the other's session;
// the header says so, one click shows that session, the answer reaches that agent's turn only.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WAIT, chat, screenshot, sendPrompt, workbenchPage, openWorkbench, palette } from './workbench.mjs';

const TEST_AGENT = 'Test agent (images, forms)';
const BUNDLED = 'ACP Native agent';

/**
 * ACP: New Session with Agent…, picking the agent whose row shows this label.
 * @param {string} label
 */
async function newSessionWith(label) {
  await palette('ACP: New Session with Agent…');
  await workbenchPage().locator('.quick-input-widget .monaco-list-row', { hasText: label }).first().click({ timeout: WAIT });
}

/**
 * The switcher's options: session id and text, in order.
 * @returns {Promise<{ value: string; text: string; selected: boolean }[]>}
 */
async function switcherOptions() {
  return chat()
    .locator('select.session-switcher option')
    .evaluateAll((options) => options.map((o) => ({ value: /** @type {HTMLOptionElement} */ (o).value, text: o.textContent ?? '', selected: /** @type {HTMLOptionElement} */ (o).selected })));
}

describe('Chat view: several sessions of several agents at once (real browser)', function () {
  this.timeout(120_000);
  /** @type {string} */
  let scratch;

  before(async () => {
    await openWorkbench();
    await palette('ACP: Focus Chat');
    await chat().locator('textarea.prompt').waitFor({ state: 'visible', timeout: 60_000 });
    scratch = mkdtempSync(join(tmpdir(), 'acp-ui-sessions-'));
  });

  after(() => rmSync(scratch, { recursive: true, force: true }));

  it("shows one agent's permission request while the user looks at the other's session, and answers it in the right one", async () => {
    const page = workbenchPage();
    // Session A: the bundled agent. Session B: the test agent, started beside it.
    await newSessionWith('Bundled agent');
    await page.locator('.statusbar-item', { hasText: `${BUNDLED}: idle` }).first().waitFor({ timeout: WAIT });
    await newSessionWith(TEST_AGENT);
    const switcher = chat().locator('select.session-switcher');
    await switcher.waitFor({ state: 'visible', timeout: WAIT });
    await page.locator('.statusbar-item', { hasText: `${TEST_AGENT}: idle` }).first().waitFor({ timeout: WAIT });
    const sessionB = (await switcherOptions()).find((o) => o.selected);
    if (!sessionB?.text.startsWith(TEST_AGENT)) assert.fail(`the new session is shown: ${JSON.stringify(await switcherOptions())}`);

    // B's turn starts and will ask once the gate exists.
    const gate = join(scratch, 'ask-now');
    await sendPrompt(`ask-permission Deploy-from-B ${gate}`);
    await chat().locator('body[data-activity="working"]').waitFor({ state: 'attached', timeout: WAIT });

    // Back to A (the newest bundled session) with the switcher; A's own turn asks too.
    const sessionA = (await switcherOptions()).filter((o) => o.text.startsWith(BUNDLED)).at(-1);
    assert.ok(sessionA, 'the bundled session is in the switcher');
    await switcher.selectOption(sessionA.value);
    await chat().locator('.row-user', { hasText: 'ask-permission' }).waitFor({ state: 'detached', timeout: WAIT });
    await sendPrompt('/run echo from session A');
    const questionA = chat().locator('.permission', { hasText: 'echo from session A' });
    await questionA.waitFor({ timeout: WAIT });

    // B asks while A is on screen: A's chat shows A's question only, the header points to B.
    writeFileSync(gate, '');
    const elsewhere = chat().locator('button.elsewhere');
    await elsewhere.waitFor({ state: 'visible', timeout: WAIT });
    assert.ok((await elsewhere.innerText()).startsWith(`Asks: ${TEST_AGENT} · ask-permission Deploy-from-B`), await elsewhere.innerText());
    assert.equal(await chat().locator('.permission').count(), 1, "only A's question in A's chat");
    assert.equal(await chat().locator('.permission', { hasText: 'Deploy-from-B' }).count(), 0);
    const options = await switcherOptions();
    assert.match(options.find((o) => o.value === sessionB.value)?.text ?? '', /needs your answer$/);
    await page.locator('.statusbar-item', { hasText: '2 busy, 2 waiting' }).first().waitFor({ timeout: WAIT });
    await screenshot('chat-sessions');

    // One click shows B, with its question; the answer goes to B's turn.
    await elsewhere.click();
    const questionB = chat().locator('.permission', { hasText: 'Deploy-from-B' });
    await questionB.waitFor({ timeout: WAIT });
    assert.equal((await switcherOptions()).find((o) => o.selected)?.value, sessionB.value);
    await questionB.locator('button[data-kind="allow_once"]').click();
    await chat().locator('.row-agent', { hasText: 'permission: {"outcome":"selected","optionId":"yes"}' }).waitFor({ timeout: WAIT });
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });

    // A's turn was untouched: its question still waits, and answering it runs A's command.
    await switcher.selectOption(sessionA.value);
    await questionA.waitFor({ timeout: WAIT });
    assert.equal(await chat().locator('.row-agent', { hasText: 'permission: {' }).count(), 0, "B's answer is not in A's conversation");
    await questionA.locator('button[data-kind="allow_once"]').click();
    await chat().locator('.row-tool[data-status="completed"]', { hasText: 'echo from session A' }).waitFor({ timeout: WAIT });
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
    assert.ok(await elsewhere.isHidden(), 'no session waits any more');
  });

  it('closes the session shown from the header; its agent keeps the other sessions', async () => {
    const switcher = chat().locator('select.session-switcher');
    const before = await switcherOptions();
    const shown = before.find((o) => o.selected);
    assert.ok(shown);
    await chat().locator('button.close-session').click();
    await chat().locator(`select.session-switcher option[value="${shown.value}"]`).waitFor({ state: 'detached', timeout: WAIT });
    if (before.length === 2) assert.ok(await switcher.isHidden(), 'one session left: the plain label again');
    const after = await switcherOptions();
    assert.equal(after.length, before.length - 1);
    assert.ok(!after.some((o) => o.value === shown.value));
  });

  it("keeps every key typed while the picked agent's session starts", async () => {
    // The agent starts 1.5 s late: its session shows while the person types. Focusing the chat
    // then moved the keyboard away from the prompt box for a moment, and keys were lost.
    await newSessionWith('Slow-starting agent');
    const box = chat().locator('textarea.prompt');
    await box.click({ timeout: WAIT });
    await box.fill('');
    const typed = 'typed while the session starts, key by key, '.repeat(6);
    await box.pressSequentially(typed, { delay: 8 });
    await workbenchPage().locator('.statusbar-item', { hasText: 'Slow-starting agent: idle' }).first().waitFor({ timeout: WAIT });
    assert.equal(await box.inputValue(), typed, 'no key went astray');
    await box.fill('');
  });
});
