// @ts-check
// The Chat view's workspace context in a real browser: @ mentions, pasted images, the agent's
// forms (elicitation) and the pickers in a narrow sidebar. The agent is the third-party test agent
// (harness/agents/thirdPartyAgent.ts, configured by test/ui/run.mjs), chosen with ACP: Choose
// Agent: it advertises images, sends Claude-like modes and config options, and says which blocks
// reached it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WAIT, chat, chatFrame, screenshot, sendPrompt, workbenchPage, openWorkbench, palette } from './workbench.mjs';

const TEST_AGENT = 'Test agent (images, forms)';
/** An 8x8 red PNG. */
const RED_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGO4o6GBFTEMLQkAe3tLAfuiUfAAAAAASUVORK5CYII=';

/**
 * The last agent message's text that contains `containing`.
 * @param {string} containing
 */
async function lastAnswer(containing) {
  const answer = chat().locator('.row-agent .markdown', { hasText: containing }).last();
  await answer.waitFor({ timeout: WAIT });
  return (await answer.textContent()) ?? '';
}

describe('Chat view: workspace context, images, forms, pickers (real browser)', function () {
  this.timeout(90_000);

  before(async () => {
    await openWorkbench();
    const page = workbenchPage();
    await palette('ACP: Focus Chat');
    await chat().locator('textarea.prompt').waitFor({ state: 'visible', timeout: 60_000 });
    await palette('ACP: Choose Agent');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: TEST_AGENT }).first().click({ timeout: WAIT });
    // Other agents' sessions stay open beside it (the header then shows the session switcher).
    await page.locator('.statusbar-item', { hasText: `${TEST_AGENT}: idle` }).first().waitFor({ timeout: WAIT });
  });

  after(async () => {
    // Back to the bundled agent for the suites that run after this one.
    await palette('ACP: Choose Agent');
    await workbenchPage().locator('.quick-input-widget .monaco-list-row', { hasText: 'Bundled agent: scripted' }).first().click({ timeout: WAIT });
    await workbenchPage().locator('.statusbar-item', { hasText: 'ACP Native agent: idle' }).first().waitFor({ timeout: WAIT });
  });

  it('completes @ mentions of files and folders with the keyboard alone, as chips sent as resource links', async () => {
    const box = chat().locator('textarea.prompt');
    await box.click();
    await box.fill('');
    await box.pressSequentially('echo-blocks look at @greet');
    const greet = chat().locator('.completion', { hasText: 'src/greet.ts' });
    await greet.waitFor({ timeout: WAIT });
    const offered = await chat().locator('.completion').allTextContents();
    assert.ok(!offered.some((t) => t.includes('greet.generated')), `.gitignore'd build output offered: ${offered.join(' | ')}`);
    await screenshot('chat-mention');
    await box.press('Enter'); // takes the completion, does not send
    const chip = chat().locator('.chips .chip', { hasText: 'src/greet.ts' });
    await chip.waitFor({ timeout: WAIT });
    assert.equal(await box.inputValue(), 'echo-blocks look at ', 'the typed @query leaves the text');
    // A folder, chosen with the arrows; Escape closes the menu without taking anything.
    await box.pressSequentially('@sr');
    await chat().locator('.completion', { hasText: 'src/' }).first().waitFor({ timeout: WAIT });
    await box.press('Escape');
    await chat().locator('.completions').waitFor({ state: 'hidden', timeout: WAIT });
    assert.equal(await box.inputValue(), 'echo-blocks look at @sr');
    await box.press('Backspace'); // re-opens the menu for "@s"
    await chat().locator('.completion').first().waitFor({ timeout: WAIT });
    const folderIndex = (await chat().locator('.completion').allTextContents()).findIndex((t) => t.startsWith('▸ src/'));
    assert.ok(folderIndex >= 0, 'the folder src is offered');
    for (let i = 0; i < folderIndex; i++) await box.press('ArrowDown');
    await box.press('Tab');
    await chat().locator('.chips .chip').nth(1).waitFor({ timeout: WAIT });
    assert.match((await chat().locator('.chips .chip').nth(1).textContent()) ?? '', /^src\/×$/, 'the folder is the second chip');
    // Backspace at the start of the box removes the last chip.
    await box.press('Control+Home');
    await box.press('Backspace');
    await chat().locator('.chips .chip').nth(1).waitFor({ state: 'detached', timeout: WAIT });
    await box.press('Control+End');
    await box.press('Enter');
    const answer = await lastAnswer('resource_link');
    assert.match(answer, /"type":"resource_link","uri":"file:\/\/[^"]*\/src\/greet\.ts","name":"src\/greet\.ts"/);
    assert.equal(await chat().locator('.chips .chip').count(), 0, 'the chips went with the prompt');
  });

  it('sends a pasted image to the agent as an image block and shows the agent\'s images', async () => {
    const frame = await chatFrame();
    await frame.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'red.png', { type: 'image/png' }));
      const box = /** @type {HTMLTextAreaElement} */ (document.querySelector('textarea.prompt'));
      box.focus();
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, RED_PNG);
    await chat().locator('.chips .chip', { hasText: 'red.png' }).waitFor({ timeout: WAIT });
    await sendPrompt('echo-blocks what is in this picture?');
    const answer = await lastAnswer('"type":"image"');
    assert.match(answer, /"type":"image","mimeType":"image\/png","bytes":\d+/);
    await sendPrompt('show-image');
    const inMessage = chat().locator('.row-agent img.chat-image').last();
    await inMessage.waitFor({ timeout: WAIT });
    await chat().locator('.row-tool img.chat-image').last().waitFor({ timeout: WAIT });
    assert.ok((await inMessage.getAttribute('src'))?.startsWith('data:image/png;base64,'));
    const decoded = await inMessage.evaluate((img) => img instanceof HTMLImageElement && img.complete && img.naturalWidth === 8);
    assert.ok(decoded, 'the image decoded under the page CSP');
    await screenshot('chat-image');
  });

  it('answers the agent\'s form inline (validation from its schema), and declines another', async () => {
    await sendPrompt('ask-form');
    const form = chat().locator('form.elicitation').last();
    await form.waitFor({ timeout: WAIT });
    await chat().locator('body[data-activity="waiting"]').waitFor({ state: 'attached', timeout: WAIT });
    assert.equal(await form.locator('[data-field="count"]').inputValue(), '3', 'the default is filled in');
    await form.locator('button[data-action="accept"]').click();
    await form.locator('.field-error', { hasText: 'Project name is required' }).waitFor({ timeout: WAIT });
    await form.locator('[data-field="name"]').fill('Ada');
    await form.locator('[data-field="color"]').selectOption('blue');
    await form.locator('[data-field="confirm"]').check();
    await form.evaluate((f) => f.scrollIntoView({ block: 'start' }));
    await screenshot('chat-form');
    await form.locator('[data-field="name"]').press('Enter');
    const answer = await lastAnswer('elicitation:');
    assert.match(answer, /"action":"accept","content":\{"name":"Ada","count":3,"color":"blue","confirm":true\}/);
    assert.match(answer, /client elicitation: \{"form":\{\},"url":\{\}\}/);
    assert.equal(await chat().locator('form.elicitation').count(), 0, 'the form is gone once answered');

    await sendPrompt('ask-form');
    await chat().locator('form.elicitation button[data-action="decline"]').click({ timeout: WAIT });
    await chat().locator('.row-agent .markdown', { hasText: '"action":"decline"' }).waitFor({ timeout: WAIT });
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
  });

  it('shows a URL form as a card with its code, and closes it when the agent sends elicitation/complete', async () => {
    const gate = path.join(os.tmpdir(), `acp-ui-url-${process.pid}-${Date.now()}`);
    try {
      await sendPrompt(`ask-url-complete https://auth.example.test/device ${gate}`);
      const card = chat().locator('form.elicitation-url').last();
      await card.waitFor({ timeout: WAIT });
      assert.match((await card.textContent()) ?? '', /auth\.example\.test: Enter this code: QRST-6789/);
      assert.equal(await card.locator('button[data-action="accept"]').textContent(), 'Open in Browser');
      await screenshot('chat-url-form');
      fs.writeFileSync(gate, '');
      await card.waitFor({ state: 'detached', timeout: WAIT });
      assert.match(await lastAnswer('elicitation:'), /"action":"accept"/, 'completed before anyone answered: accepted');
    } finally {
      fs.rmSync(gate, { force: true });
    }
  });

  it('refuses a prompt over the size limit unsent, says its size and the limit, and keeps it in the box', async () => {
    const box = chat().locator('textarea.prompt');
    const answers = await chat().locator('.row-agent').count();
    const text = `echo-blocks ${'x'.repeat(8.5 * 1024 * 1024)}`;
    await box.fill(text);
    await box.press('Enter');
    const note = chat().locator('.composer-note');
    await note.filter({ hasText: 'over the limit of 8 MiB' }).waitFor({ timeout: WAIT });
    assert.match((await note.textContent()) ?? '', /The prompt is 8\.5 MiB, over the limit of 8 MiB \(acpNative\.prompt\.maxBytes\): nothing was sent/);
    assert.equal((await box.inputValue()).length, text.length, 'the whole prompt is back in the box');
    assert.equal(await chat().locator('.row-agent').count(), answers, 'nothing reached the agent');
    await box.fill('');
  });

  it('labels the pickers, hides the mode picker a mode option supersedes, and clips nothing at 300 px', async () => {
    const page = workbenchPage();
    // Drag the sidebar's edge to make it 300 px wide.
    const sidebar = page.locator('.part.sidebar');
    const box = await sidebar.boundingBox();
    assert.ok(box, 'the sidebar is on screen');
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 150, y, { steps: 4 });
    await page.mouse.move(box.x + 300, y, { steps: 4 });
    await page.mouse.up();
    const frame = await chatFrame();
    await frame.waitForFunction(() => Math.abs(document.documentElement.clientWidth - 300) < 24, undefined, { timeout: WAIT });
    const names = await chat().locator('.pickers .picker:not([hidden]) .picker-name').allTextContents();
    assert.deepEqual(names, ['Mode', 'Model', 'Reasoning effort'], 'one Mode picker (the config option), each labelled');
    assert.equal(await chat().locator('select.mode-select').isVisible(), false, 'the legacy mode picker is hidden');
    assert.equal(await chat().locator('select[data-config-id="model"]').getAttribute('title'), 'Model: The model that answers');
    const overflow = await frame.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const clipped = [...document.querySelectorAll('.toolbar *, .composer button, .composer select, .picker, .picker-name')]
        .filter((e) => e.getClientRects().length > 0)
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 || e.getBoundingClientRect().left < -0.5)
        .map((e) => `${e.className}: ${e.textContent?.slice(0, 20)}`);
      return { width, clipped, scroll: document.documentElement.scrollWidth };
    });
    assert.deepEqual(overflow.clipped, [], `clipped at ${overflow.width} px`);
    assert.ok(overflow.scroll <= overflow.width, `the page scrolls sideways (${overflow.scroll} > ${overflow.width})`);
    await page.mouse.move(800, 600); // off the sash, so it is not highlighted in the picture
    await screenshot('chat-pickers-300');
  });
});
