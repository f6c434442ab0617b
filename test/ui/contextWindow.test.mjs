// @ts-check
// Plans, compactions, notices and the context meter in a real browser, from the Claude-like test
// agent (harness/agents/claudeLikeAgent.ts, configured by test/ui/run.mjs), which sends them as
// Claude's adapter does: the plan card replaced in place and opened in the markdown preview, the
// compaction divider with its folded summary, a notice, the meter at 50 / 85 / 97 %, a toggle.
import * as assert from 'node:assert/strict';
import { WAIT, chat, palette, screenshot, sendPrompt, workbenchPage, openWorkbench } from './workbench.mjs';

const AGENT = 'Claude-like agent (plans, compaction)';

/**
 * Waits until the chat says idle. Only meaningful once something the turn sent has been seen:
 * right after Enter the chat may not be busy yet, and idle would pass before the turn began.
 */
async function idle() {
  await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
}

/**
 * The meter's level, label, fill width (% of the bar) and fill colour.
 * @returns {Promise<{ level: string | undefined; label: string; width: number; color: string; title: string }>}
 */
async function meter() {
  return chat()
    .locator('.context-meter')
    .evaluate((node) => {
      const element = /** @type {HTMLElement} */ (node);
      const fill = /** @type {HTMLElement} */ (element.querySelector('.meter-fill'));
      const bar = /** @type {HTMLElement} */ (element.querySelector('.meter-bar'));
      return {
        level: element.dataset.level,
        label: element.querySelector('.meter-label')?.textContent ?? '',
        width: Math.round((fill.getBoundingClientRect().width / bar.getBoundingClientRect().width) * 100),
        color: getComputedStyle(fill).backgroundColor,
        title: element.title,
      };
    });
}

describe('Chat view: plans, compaction, notices and the context meter (real browser)', function () {
  this.timeout(120_000);

  before(async () => {
    await openWorkbench();
    await palette('ACP: Focus Chat');
    await chat().locator('textarea.prompt').waitFor({ state: 'visible', timeout: 60_000 });
    await palette('ACP: New Session with Agent…');
    await workbenchPage().locator('.quick-input-widget .monaco-list-row', { hasText: AGENT }).first().click({ timeout: WAIT });
    await chat().locator('.context-meter').waitFor({ state: 'visible', timeout: WAIT });
  });

  after(async () => {
    // The sessions of later suites start from what they open themselves.
    await palette('ACP: Close Session').catch(() => undefined);
    await palette('View: Close All Editors').catch(() => undefined);
  });

  it('shows a markdown plan as a card, replaced in place, and Open shows it in the markdown preview', async () => {
    await sendPrompt('plan fix\n# Fix the parser\n\n1. Read the tokenizer');
    const card = chat().locator('.row-plan .plan-card');
    await card.locator('h1', { hasText: 'Fix the parser' }).waitFor({ timeout: WAIT });
    await idle();
    await sendPrompt('plan fix\n# Fix the parser\n\n1. Read the tokenizer\n2. Fix the off-by-one');
    await card.locator('li', { hasText: 'Fix the off-by-one' }).waitFor({ timeout: WAIT });
    assert.equal(await chat().locator('.row-plan').count(), 1, 'the same plan replaced in place, not a second card');
    await screenshot('chat-plan');
    await card.locator('button.plan-open').click();
    await workbenchPage().locator('.tabs-container .tab', { hasText: 'Preview fix.md' }).first().waitFor({ timeout: WAIT });
    // The preview is a webview too: closed, so the chat is the only one again.
    await palette('View: Close All Editors');
    await workbenchPage().locator('iframe.webview.ready').nth(1).waitFor({ state: 'detached', timeout: WAIT });
    await idle();
  });

  it("answers Claude's plan approval with the button clicked, of the three that share a kind", async () => {
    await sendPrompt('plan-mode\n# Ship the parser');
    const question = chat().locator('.permission', { hasText: 'Approve Plan' });
    await question.waitFor({ timeout: WAIT });
    assert.deepEqual(await question.locator('button[data-kind="allow_always"]').allInnerTexts(), [
      'Yes, clear context (12% used) and use auto mode',
      'Yes, and use auto mode',
      'Yes, and bypass permissions',
    ]);
    await question.locator('button', { hasText: 'Yes, and bypass permissions' }).click();
    await chat().locator('.row', { hasText: 'Plan approved (exit-plan-bypass): now in bypassPermissions mode.' }).waitFor({ timeout: WAIT });
    await idle();
  });

  it('shows a compaction as a divider with its summary folded, and one that never finished as such', async () => {
    await sendPrompt('usage 850000 1000000 0.42');
    // Compact is refused while a turn runs: wait for this turn's usage, then for its end.
    await chat().locator('.meter-label', { hasText: '850k / 1M' }).waitFor({ timeout: WAIT });
    await idle();
    await chat().locator('.meter-compact').click();
    const done = chat().locator('.row-compaction .compaction[data-status="completed"]');
    await done.waitFor({ timeout: WAIT });
    assert.equal(await done.locator('.compaction-label').innerText(), 'Conversation compacted');
    const summary = done.locator('details.compaction-summary');
    assert.equal(await summary.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open), false, 'folded');
    await summary.locator('summary').click();
    await summary.locator('.markdown', { hasText: 'fixed the off-by-one in the tokenizer' }).waitFor({ state: 'visible', timeout: WAIT });
    assert.equal(await chat().locator('.row-compaction').count(), 1, "Claude's repeated completed is the same divider");
    await idle();
    await sendPrompt('compact-stall');
    await chat().locator('.compaction[data-status="unfinished"]', { hasText: 'did not finish' }).waitFor({ timeout: WAIT });
    await idle();
    await screenshot('chat-compaction');
  });

  it('shows a notice with its severity, title and description, not as the answer', async () => {
    await sendPrompt('mcp-broken');
    const notice = chat().locator('.row-notice .notice-warning');
    await notice.waitFor({ timeout: WAIT });
    assert.equal(await notice.locator('.notice-title').innerText(), 'MCP server "broken" failed to start');
    assert.equal(await notice.locator('.notice-description').innerText(), 'Its tools are unavailable in this session. Run /mcp for the error.');
    assert.equal(await chat().locator('.row-agent', { hasText: 'failed to start' }).count(), 0);
    await idle();
  });

  it('fills the meter under the prompt: normal at 50 %, amber at 85 %, red at 97 %', async () => {
    /** @type {Record<string, Awaited<ReturnType<typeof meter>>>} */
    const seen = {};
    for (const [used, level] of /** @type {const} */ ([[500_000, 'normal'], [850_000, 'warning'], [970_000, 'critical']])) {
      await sendPrompt(`usage ${used} 1000000 0.42`);
      // The level alone may already hold from before (the compaction leaves the meter normal).
      await chat().locator(`.context-meter[data-level="${level}"] .meter-label`, { hasText: `${used / 1000}k / 1M` }).waitFor({ timeout: WAIT });
      await idle();
      seen[level] = await meter();
    }
    assert.deepEqual(
      Object.values(seen).map((m) => [m.label, m.width]),
      [['500k / 1M (50 %)', 50], ['850k / 1M (85 %)', 85], ['970k / 1M (97 %)', 97]],
    );
    assert.equal(new Set(Object.values(seen).map((m) => m.color)).size, 3, 'three colours');
    assert.equal(seen.critical?.title, 'Context window: 970,000 of 1,000,000 tokens used (97 %) · cost 0.42 USD');
    await screenshot('chat-context-meter');
    await sendPrompt('usage 1250000 1000000');
    await chat().locator('.meter-label', { hasText: 'over the window' }).waitFor({ timeout: WAIT });
    assert.equal((await meter()).width, 100, 'used > size: full, not past the bar');
    await idle();
  });

  it('sets a boolean config option from its toggle, sent typed', async () => {
    const toggle = chat().locator('label.toggle', { hasText: 'Fast mode' }).locator('input[type="checkbox"]');
    await toggle.waitFor({ timeout: WAIT });
    assert.equal(await toggle.isChecked(), false);
    await toggle.check();
    await sendPrompt('config?');
    await chat().locator('.row-agent', { hasText: '"type":"boolean","value":true' }).waitFor({ timeout: WAIT });
    assert.equal(await toggle.isChecked(), true);
    await idle();
  });
});
