// @ts-check
// The Chat view in a real browser: Chromium drives the VS Code workbench (code-server) with the
// extension under development and the bundled (scripted) agent. See test/ui/run.mjs.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHAT_PROTOCOL_VERSION, WAIT, chat, chatFrame, runCommand, screenshot, sendPrompt, turn, ui, workbenchPage, openWorkbench } from './workbench.mjs';

const fence = (/** @type {string} */ text) => '```\n' + text + '\n```';

describe('Chat view (real browser)', function () {
  this.timeout(90_000);

  before(async () => {
    await openWorkbench();
    await runCommand('ACP: Focus Chat');
    await chat().locator('textarea.prompt').waitFor({ state: 'visible', timeout: 60_000 });
  });

  it('streams the answer to a typed prompt, rendered as markdown, and completes slash commands', async () => {
    await sendPrompt('hello');
    await chat().locator('.row-user', { hasText: 'hello' }).waitFor({ timeout: WAIT });
    // The scripted agent answers an unknown prompt with its help, in markdown (inline code).
    const answer = chat().locator('.row-agent .markdown').last();
    await answer.locator('code', { hasText: '/read PATH' }).first().waitFor({ timeout: WAIT });
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
    // `/` offers the agent's commands (available_commands_update).
    const box = chat().locator('textarea.prompt');
    await box.pressSequentially('/re');
    await chat().locator('.completion', { hasText: '/read' }).waitFor({ timeout: WAIT });
    await box.press('Tab');
    assert.equal(await box.inputValue(), '/read ');
    await box.fill('');
  });

  it('shows an edit as a tool row whose click opens the diff editor', async () => {
    await sendPrompt(`/edit src/greet.ts\n${fence('Hello, ${name}!')}\n${fence('Hi from the chat, ${name}!')}`);
    const row = chat().locator('.row-tool[data-status="completed"]', { hasText: 'src/greet.ts' }).last();
    await row.waitFor({ timeout: WAIT });
    assert.equal(await workbenchPage().locator('.monaco-diff-editor').count(), 0, 'no diff before the click (diff.autoOpen: onClick)');
    await row.locator('.tool-open').click();
    await workbenchPage().locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: WAIT });
    await workbenchPage().locator('.tabs-container .tab', { hasText: 'greet.ts' }).first().waitFor({ timeout: WAIT });
    await workbenchPage().locator('.monaco-diff-editor .view-line', { hasText: 'Hi from the chat' }).first().waitFor({ timeout: WAIT });
    await screenshot('chat-diff');
  });

  it('offers "Restore to before this prompt" on the prompt, asks with the file list, and restores', async () => {
    const file = join(ui.workspace ?? '', 'src/greet.ts');
    const before = readFileSync(file, 'utf8');
    await sendPrompt(`/edit src/greet.ts\n${fence('Goodbye, ${name}.')}\n${fence('Farewell (restored?), ${name}.')}`);
    const prompt = chat().locator('.row-user', { hasText: 'restored?' }).last();
    const changes = prompt.locator('.checkpoint-changes');
    await changes.waitFor({ timeout: WAIT });
    await changes.filter({ hasText: /^1 file, \+1 −1$/ }).waitFor({ timeout: WAIT });
    assert.notEqual(readFileSync(file, 'utf8'), before);
    await prompt.locator('.checkpoint-restore').click();
    const dialog = workbenchPage().locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: WAIT });
    assert.match(await dialog.innerText(), /src\/greet\.ts/);
    await dialog.locator('a.monaco-button, button', { hasText: 'Restore' }).first().click();
    const deadline = Date.now() + WAIT;
    while (readFileSync(file, 'utf8') !== before) {
      assert.ok(Date.now() < deadline, 'the file is restored');
      await workbenchPage().waitForTimeout(50);
    }
  });

  it('edits and resends a prompt: the restore is asked first (Cancel changes nothing), then a new branch shows the edited text', async () => {
    const file = join(ui.workspace ?? '', 'notes/resend-ui.txt');
    // Not the session's first prompt (run alone, it would be): the branch carries what came before.
    await turn('said before the edit');
    await sendPrompt(`/write notes/resend-ui.txt\n${fence('made by the agent')}`);
    await chat().locator('.row-tool[data-status="completed"]', { hasText: 'notes/resend-ui.txt' }).last().waitFor({ timeout: WAIT });
    assert.ok(existsSync(file));
    const prompt = chat().locator('.row-user', { hasText: 'resend-ui.txt' }).last();
    await prompt.locator('.resend-edit').click({ timeout: WAIT });
    // The bubble gives way to the edit box (its text is then a value, not the row's text).
    const editing = chat().locator('.row-user', { has: chat().locator('textarea.resend-text') });
    const box = editing.locator('textarea.resend-text');
    await box.waitFor({ timeout: WAIT });
    assert.match(await box.inputValue(), /^\/write notes\/resend-ui\.txt/, 'the box starts with the message as sent');
    await box.fill('hello again, edited');
    const dialog = workbenchPage().locator('.monaco-dialog-box');
    await editing.locator('.resend-send').click();
    await dialog.waitFor({ timeout: WAIT });
    assert.match(await dialog.innerText(), /Edit & resend from prompt \d+\?[\s\S]*notes\/resend-ui\.txt/);
    await dialog.locator('a.monaco-button, button', { hasText: 'Cancel' }).first().click();
    await dialog.waitFor({ state: 'detached', timeout: WAIT });
    assert.ok(existsSync(file), 'declined: nothing restored');
    assert.equal(await box.inputValue(), 'hello again, edited', 'declined: the edited text stays in its box');
    assert.equal(await chat().locator('.row-user', { hasText: 'hello again, edited' }).count(), 0, 'declined: nothing sent');

    await editing.locator('.resend-send').click();
    await dialog.waitFor({ timeout: WAIT });
    await dialog.locator('a.monaco-button, button', { hasText: 'Restore and Resend' }).first().click();
    const deadline = Date.now() + WAIT;
    while (existsSync(file)) {
      assert.ok(Date.now() < deadline, 'the file the agent created is gone again');
      await workbenchPage().waitForTimeout(50);
    }
    // The agent's long answer follows it: scrolled to, as the user would, since rows out of view
    // are only built when they come into view.
    await chat().locator('.row', { hasText: 'Continued from' }).first().waitFor({ timeout: WAIT });
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
    await chat().locator('.row-user').last().scrollIntoViewIfNeeded({ timeout: WAIT });
    await chat().locator('.row-user .bubble', { hasText: /^hello again, edited$/ }).waitFor({ timeout: WAIT });
    assert.equal(await chat().locator('.row-user', { hasText: 'resend-ui.txt' }).count(), 0, 'the new branch stops before the edited prompt');
    assert.equal(await chat().locator('.row-user', { hasText: 'said before the edit' }).count(), 1, 'and shows what came before it');
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
    await screenshot('chat-edit-and-resend');
  });

  it('asks for permission inline and goes on when answered there', async () => {
    await sendPrompt('/run echo permitted by the chat');
    const allow = chat().locator('.permission button[data-kind="allow_once"]');
    await allow.waitFor({ timeout: WAIT });
    await chat().locator('body[data-activity="waiting"]').waitFor({ state: 'attached', timeout: WAIT });
    await screenshot('chat-permission');
    await allow.click();
    await chat().locator('.row-tool[data-status="completed"]', { hasText: 'echo permitted by the chat' }).waitFor({ timeout: WAIT });
    assert.equal(await chat().locator('.permission').count(), 0, 'the question is gone once answered');
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
  });

  it('cancels a running turn with the Cancel button', async () => {
    await sendPrompt('/run sleep 30');
    await chat().locator('.permission button[data-kind="allow_once"]').click({ timeout: WAIT });
    await chat().locator('body[data-activity="working"]').waitFor({ state: 'attached', timeout: WAIT });
    const cancel = chat().locator('button.cancel');
    await cancel.waitFor({ state: 'visible', timeout: WAIT });
    const started = Date.now();
    await cancel.click();
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: 10_000 });
    assert.ok(Date.now() - started < 10_000);
    assert.ok(await cancel.isHidden(), 'no Cancel button once the turn ended');
    await chat().locator('.row-tool', { hasText: 'sleep 30' }).locator('.status-failed, .status-completed').waitFor({ timeout: WAIT });
    await screenshot('chat-conversation');
  });

  it('switches the session mode from the picker (session/set_mode): bypass asks nothing', async () => {
    const select = chat().locator('select.mode-select');
    await select.selectOption({ label: 'Bypass' }, { timeout: WAIT });
    await sendPrompt('/run echo no question asked');
    await chat().locator('.row-tool[data-status="completed"]', { hasText: 'echo no question asked' }).waitFor({ timeout: WAIT });
    assert.equal(await chat().locator('.permission').count(), 0);
    assert.equal(await select.inputValue(), 'bypass');
  });

  it('keeps the Edit & resend box, its focus and what is typed in it, while a running turn changes its row', async () => {
    // The mode is Bypass (the test before): the turn's /run asks nothing, and its write lands
    // while the person types, adding "Restore to before this prompt" to the edited prompt's row.
    await turn('a prompt to edit while the agent works');
    const row = chat().locator('.row-user', { hasText: 'a prompt to edit while the agent works' }).last();
    await row.locator('.resend-edit').click({ timeout: WAIT });
    const box = chat().locator('textarea.resend-text');
    await box.waitFor({ timeout: WAIT });
    await box.fill('');
    await sendPrompt(`/run sleep 1\n/write notes/while-editing.txt\n${fence('written while you type')}`);
    await box.click();
    const typed = 'the edited message, typed key by key while the turn runs';
    await box.pressSequentially(typed, { delay: 40 });
    await chat().locator('.row-tool[data-status="completed"]', { hasText: 'notes/while-editing.txt' }).last().waitFor({ timeout: WAIT });
    assert.equal(await box.inputValue(), typed, 'no key went astray');
    assert.ok(await box.evaluate((node) => node === document.activeElement), 'the box still has the focus');
    await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
    await chat().locator('.row-user', { has: chat().locator('textarea.resend-text') }).locator('.resend-cancel').click();
    await row.locator('.bubble', { hasText: 'a prompt to edit while the agent works' }).waitFor({ timeout: WAIT });
    assert.ok(await row.locator('.checkpoint-restore').count(), 'cancelled, the row shows what it has now');
  });

  it("asks the editor's own question (overwrite unsaved changes) inline, with Compare, and no notification", async () => {
    const page = workbenchPage();
    // A plain text file (no language server to start), then unsaved changes typed into it.
    await sendPrompt(`/write notes/yours.txt\n${fence('first line')}`);
    await chat().locator('.row-tool[data-status="completed"]', { hasText: 'notes/yours.txt' }).waitFor({ timeout: WAIT });
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: WAIT });
    await input.fill('yours.txt');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'yours.txt' }).first().waitFor({ timeout: WAIT });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-line', { hasText: 'first line' }).first().click({ timeout: WAIT });
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' and my unsaved words');
    await page.locator('.tabs-container .tab.dirty', { hasText: 'yours.txt' }).waitFor({ timeout: WAIT });

    await sendPrompt(`/write notes/yours.txt\n${fence('agent text')}`);
    const question = chat().locator('.permission', { hasText: 'Overwrite unsaved changes in notes/yours.txt' });
    await question.waitFor({ timeout: WAIT });
    const toasts = page.locator('.notification-toast', { hasText: 'unsaved changes' });
    assert.equal(await toasts.count(), 0, 'no notification while the chat shows the question');
    await question.locator('button.perm-inspect', { hasText: 'Compare' }).click({ timeout: WAIT });
    await page.locator('.tabs-container .tab', { hasText: "yours.txt (yours ↔ agent's)" }).waitFor({ timeout: WAIT });
    assert.equal(await chat().locator('.permission').count(), 1, 'Compare does not answer');
    await question.locator('button[data-kind="reject_once"]').click({ timeout: WAIT });
    await chat().locator('.row-tool[data-status="failed"]', { hasText: 'notes/yours.txt' }).last().waitFor({ timeout: WAIT });
    assert.equal(await chat().locator('.permission').count(), 0, 'the question is gone once answered');
    assert.equal(await toasts.count(), 0, 'no notification left behind');
    await page.locator('.tabs-container .tab.dirty', { hasText: 'yours.txt' }).first().click({ timeout: WAIT });
    await runCommand('File: Revert File');
    await page.locator('.tabs-container .tab.dirty').waitFor({ state: 'detached', timeout: WAIT });
    await runCommand('View: Close All Editors');
  });

  it('opens a 2,000-message session building only the rows in view, and scrolls it', async () => {
    const frame = await chatFrame();
    const figures = await frame.evaluate(async (v) => {
      const items = [];
      for (let i = 0; i < 1000; i++) {
        items.push({ kind: 'message', role: 'user', text: `Question ${i}: what does function ${i} do?`, attachments: [] });
        const answer = `Answer **${i}**: it calls \`helper(${i})\`, then\n\n- checks [the docs](https://example.com/${i})\n- returns\n\n\`\`\`ts\nreturn helper(${i});\n\`\`\``;
        items.push(i % 10 === 5
          ? { kind: 'toolCall', toolCallId: `t${i}`, title: `Read src/file${i}.ts`, icon: 'book', status: 'completed' }
          : { kind: 'message', role: 'agent', text: answer, attachments: [] });
      }
      const status = { agentName: 'Synthetic', sessionId: 'synthetic', title: null, activity: 'idle', modes: [], currentModeId: null, configOptions: [], commands: [], plan: [], permissions: [], notices: [], usage: null, attachments: [] };
      const raf = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
      const t0 = performance.now();
      window.dispatchEvent(new MessageEvent('message', { data: { v, type: 'reset', status, items } }));
      await raf();
      const firstPaintMs = performance.now() - t0;
      const scroller = document.querySelector('.scroller');
      if (!scroller) throw new Error('the chat has no scroller');
      const gaps = [];
      let last = performance.now();
      for (let step = 0; step <= 80; step++) {
        scroller.scrollTop = scroller.scrollHeight * (1 - step / 80);
        await raf();
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      gaps.sort((a, b) => a - b);
      return {
        items: document.querySelectorAll('.row').length,
        built: document.querySelectorAll('.row[data-built="1"]').length,
        resetMs: Number(document.body.dataset.resetMs),
        firstPaintMs,
        maxFrameMs: gaps[gaps.length - 1],
        p95FrameMs: gaps[Math.floor(gaps.length * 0.95)],
        medianFrameMs: gaps[Math.floor(gaps.length / 2)],
      };
    }, CHAT_PROTOCOL_VERSION);
    console.log(`      2,000 items: ${JSON.stringify(figures)}`);
    assert.equal(figures.items, 2000);
    assert.ok(figures.built < 2000, 'rows off screen are not built');
    // The times are printed above, never asserted: CI must not gate on wall-clock time (a loaded
    // 2-core machine stretched one frame past any fixed bar). What stays asserted is the design
    // that keeps it fast: rows off screen are not built.
  });
});
