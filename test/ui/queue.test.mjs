// @ts-check
// The prompt queue and steering in a real browser, with the steering test agent
// (harness/agents/steeringAgent.ts, configured by test/ui/run.mjs): Alt+Enter queues during a turn
// (the placeholder says so), the queue above the prompt box edits, removes and sends now, and
// Enter during a turn steers (the text shows as the user's message, the answer follows).
import * as assert from 'node:assert/strict';
import { WAIT, chat, palette, screenshot, sendPrompt, workbenchPage, openWorkbench } from './workbench.mjs';

const AGENT = 'Steering agent (queue)';

const working = async () => {
  try {
    await chat().locator('body[data-activity="working"]').waitFor({ state: 'attached', timeout: WAIT });
  } catch (error) {
    await screenshot('queue-not-working');
    throw error;
  }
};
const idle = () => chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });

/** The chat shows the steering agent's session (a bundled session the chat opened meanwhile may be shown instead). */
async function showSteeringSession() {
  const shown = chat().locator('.agent-label:visible, .session-switcher:visible', { hasText: AGENT });
  await shown.first().waitFor({ timeout: WAIT });
  await workbenchPage().waitForTimeout(1000);
  const switcher = chat().locator('.session-switcher');
  if (await switcher.isVisible()) {
    const option = switcher.locator('option', { hasText: AGENT }).last();
    await switcher.selectOption({ label: (await option.textContent()) ?? '' });
  }
  await chat().locator('.agent-label:visible, .session-switcher:visible').first().waitFor({ timeout: WAIT });
}

describe('Chat view: the prompt queue and steering (real browser)', function () {
  this.timeout(120_000);

  before(async () => {
    await openWorkbench();
    await palette('ACP: Focus Chat');
    await chat().locator('textarea.prompt').waitFor({ state: 'visible', timeout: 60_000 });
    await palette('ACP: New Session with Agent…');
    await workbenchPage().locator('.quick-input-widget .monaco-list-row', { hasText: AGENT }).first().click({ timeout: WAIT });
    await showSteeringSession();
  });

  after(async () => {
    await palette('ACP: Close Session').catch(() => undefined);
  });

  it('Alt+Enter queues during a turn; the queue edits, removes, and Send now steers into the turn', async () => {
    await sendPrompt('work 20000');
    await working();
    const box = chat().locator('textarea.prompt');
    assert.match((await box.getAttribute('placeholder')) ?? '', /Enter to steer.*Alt\+Enter to queue/);
    await sendPrompt('first queued', 'Alt+Enter');
    await sendPrompt('second queued', 'Alt+Enter');
    const items = chat().locator('.queue .queue-item');
    await items.nth(1).waitFor({ timeout: WAIT });
    assert.deepEqual(await items.locator('.queue-text').allInnerTexts(), ['first queued', 'second queued']);
    // Edit the first: its text becomes a box; Enter saves.
    await items.first().locator('.queue-edit').click();
    const edit = chat().locator('.queue-edit-box');
    await edit.fill('first, edited');
    await edit.press('Enter');
    await chat().locator('.queue-item .queue-text', { hasText: 'first, edited' }).waitFor({ timeout: WAIT });
    // Remove the second.
    await chat().locator('.queue-item', { hasText: 'second queued' }).locator('.queue-remove').click();
    await chat().locator('.queue-item', { hasText: 'second queued' }).waitFor({ state: 'detached', timeout: WAIT });
    await screenshot('chat-queue');
    // Send now: steered into the running turn, shown as the user's message, answered in the turn.
    await chat().locator('.queue-item', { hasText: 'first, edited' }).locator('.queue-send-now').click();
    await chat().locator('.row-user', { hasText: 'first, edited' }).waitFor({ timeout: WAIT });
    await chat().locator('.row-agent', { hasText: 'Steered: first, edited' }).waitFor({ timeout: WAIT });
    await idle();
    assert.equal(await chat().locator('.queue').isHidden(), true, 'the queue is gone once empty');
    assert.equal(await chat().locator('.row-user', { hasText: 'second queued' }).count(), 0, 'the removed prompt was never sent');
  });

  it('Enter during a turn steers; Up in the empty box recalls the last prompt', async () => {
    await showSteeringSession();
    await sendPrompt('work 20000');
    await working();
    await sendPrompt('steer me');
    await chat().locator('.row-agent', { hasText: 'Steered: steer me' }).waitFor({ timeout: WAIT });
    await idle();
    const box = chat().locator('textarea.prompt');
    await box.click();
    await box.press('ArrowUp');
    assert.equal(await box.inputValue(), 'steer me');
    await box.press('ArrowUp');
    assert.equal(await box.inputValue(), 'work 20000');
    await box.fill('');
  });
});
