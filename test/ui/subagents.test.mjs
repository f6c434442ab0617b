// @ts-check
// A subagent's block in the parent's conversation, in a real browser, from the subagent test agent
// (harness/agents/subagentAgent.ts, configured by test/ui/run.mjs): folded, named, its state, and
// opened its prompt, text, rows and report; Stop on a running child.
import * as assert from 'node:assert/strict';
import { WAIT, chat, palette, sendPrompt, workbenchPage, openWorkbench } from './workbench.mjs';

const AGENT = 'Subagent agent';

describe('Chat view: subagents (real browser)', function () {
  this.timeout(120_000);

  before(async () => {
    await openWorkbench();
    await palette('ACP: Focus Chat');
    await chat().locator('textarea.prompt').waitFor({ state: 'visible', timeout: 60_000 });
    await palette('ACP: New Session with Agent…');
    await workbenchPage().locator('.quick-input-widget .monaco-list-row', { hasText: AGENT }).first().click({ timeout: WAIT });
    // No wait for the session to show: a prompt typed while the picked agent's session starts
    // goes to that session (it once went to a new session of the default agent).
  });

  after(async () => {
    await palette('ACP: Close Session').catch(() => undefined);
  });

  it('shows a subagent as a folded block that opens onto its prompt, rows and report', async () => {
    await sendPrompt('spawn Read hello');
    const block = chat().locator('.row-subagent details.subagent').first();
    await block.locator('.subagent-state', { hasText: 'idle (end_turn)' }).waitFor({ timeout: WAIT });
    assert.equal(await block.locator('.subagent-title').innerText(), 'Read hello');
    assert.equal(await block.evaluate((d) => /** @type {HTMLDetailsElement} */ (d).open), false, 'folded');
    await block.locator('summary.subagent-head').click();
    await block.locator('.subagent-report', { hasText: 'hello.txt says hello.' }).waitFor({ timeout: WAIT });
    assert.match(await block.locator('.subagent-tool').first().innerText(), /Read .*hello\.txt/);
    assert.match(await block.locator('.subagent-report-label').innerText(), /used Read/);
  });

  it('Stop on a running subagent stops it alone', async () => {
    await sendPrompt('spawn-wait');
    const block = chat().locator('.row-subagent details.subagent[data-activity="running"]');
    await block.locator('button.subagent-stop').click({ timeout: WAIT });
    await chat().locator('.row-subagent .subagent-state', { hasText: 'idle (cancelled)' }).waitFor({ timeout: WAIT });
  });
});
