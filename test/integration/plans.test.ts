import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { allTabs, closeAllEditors, inWorkspace, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';
import { reloadActiveSession } from './support/reload';

/** The tab of VS Code's markdown preview, if one is open. */
function previewTab(): vscode.Tab | undefined {
  return allTabs().find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.includes('markdown.preview'));
}

/** The read-only document a plan is shown from, once VS Code opened it. */
function planDocument(planId: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'acp-native-plan' && new URLSearchParams(d.uri.query).get('plan') === planId);
}

describe('plans (plan_update) from a Claude-like agent', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: { name: 'claude-like', file: 'claudeLikeAgent' } }, (started) => (api = started));

  beforeEach(closeAllEditors);

  it("shows Claude's plan-mode plan once the plan is approved, and Open shows it in the markdown preview", async () => {
    const plan = '# Fix the parser\n\n1. Read `src/parse.ts`\n2. Fix the tokenizer\n';
    const turn = api.prompt(`plan-mode\n${plan}`);
    const question = await waitFor('the Approve Plan question', () => api.pendingPermissions().find((q) => q.title.includes('Approve Plan')));
    assert.deepEqual(
      question.options.map((o) => o.name),
      ['Yes, manually approve edits', 'Yes, clear context (12% used) and use auto mode', 'Yes, and use auto mode', 'Yes, and bypass permissions', 'No, keep planning'],
    );
    assert.deepEqual(api.plans(), [], 'no plan before the approval');
    assert.ok(api.answerPermission(question.id, 'allow_once'));
    assert.equal(await within('the plan-mode turn', turn), 'end_turn');
    assert.match(api.conversation().at(-1)?.text ?? '', /Plan approved \(exit-plan-default\)/);
    assert.deepEqual(api.plans(), [{ planId: 'plan-mode', type: 'markdown', content: plan.trimEnd() }]);
    await vscode.commands.executeCommand('acpNative.openPlan', api.activeSessionId, 'plan-mode');
    await waitFor('the markdown preview', previewTab);
    const doc = await waitFor('the plan document', () => planDocument('plan-mode'));
    assert.equal(doc.getText(), plan.trimEnd());
  });

  it("answers Claude's plan approval with the option picked among its three allow_always", async () => {
    const turn = api.prompt('plan-mode\n# Ship it');
    const question = await waitFor('the Approve Plan question', () => api.pendingPermissions().find((q) => q.title.includes('Approve Plan')));
    const bypass = question.options.find((o) => o.name === 'Yes, and bypass permissions');
    assert.equal(bypass?.kind, 'allow_always');
    assert.throws(() => api.answerPermission(question.id, 'allow_always', { optionId: 'exit-plan-gone' }), /no allow_always option "exit-plan-gone"/);
    assert.ok(api.answerPermission(question.id, 'allow_always', { optionId: bypass.optionId }));
    assert.equal(await within('the plan-mode turn', turn), 'end_turn');
    assert.match(api.conversation().at(-1)?.text ?? '', /Plan approved \(exit-plan-bypass\): now in bypassPermissions mode/);
    // An "always" is the agent's to remember: the next approval is asked again, not answered for the person.
    const next = api.prompt('plan-mode\n# Ship it again');
    const again = await waitFor('the second Approve Plan question', () => api.pendingPermissions().find((q) => q.title.includes('Approve Plan')));
    assert.ok(api.answerPermission(again.id, 'reject_once'));
    assert.equal(await within('the second plan-mode turn', next), 'end_turn');
  });

  it('replaces a plan of the same id in place, and plan_removed removes it', async () => {
    await within('first version', api.prompt('plan p1\n# One'));
    await within('second version', api.prompt('plan p1\n# Two\n\n- step'));
    await within('another plan', api.prompt('plan p2\n# Other'));
    assert.deepEqual(
      api.plans().map((p) => [p.planId, p.content]),
      [['plan-mode', api.plans()[0]?.content], ['p1', '# Two\n\n- step'], ['p2', '# Other']],
    );
    await within('removal', api.prompt('plan-remove p1'));
    assert.deepEqual(api.plans().map((p) => p.planId), ['plan-mode', 'p2']);
  });

  it('keeps a huge markdown plan whole: Open shows every character (the card shows its start)', async () => {
    await within('a 3 MB plan', api.prompt('plan-huge big 3'));
    const plan = api.plans().find((p) => p.planId === 'big');
    assert.ok(plan?.content && plan.content.length > 3 * 1024 * 1024);
    await vscode.commands.executeCommand('acpNative.openPlan', api.activeSessionId, 'big');
    const doc = await waitFor('the plan document', () => planDocument('big'));
    assert.equal(doc.getText().length, plan.content.length);
  });

  it('opens a file plan in an editor, and keeps an items plan', async () => {
    const file = inWorkspace('docs-plan.md');
    fs.writeFileSync(file, '# The plan on disk\n');
    try {
      await within('a file plan', api.prompt(`plan-file on-disk ${file}`));
      await within('an items plan', api.prompt('plan-items checklist'));
      assert.deepEqual(api.plans().find((p) => p.planId === 'on-disk'), { planId: 'on-disk', type: 'file', path: file });
      assert.deepEqual(api.plans().find((p) => p.planId === 'checklist')?.entries?.map((e) => e.status), ['completed', 'in_progress']);
      await vscode.commands.executeCommand('acpNative.openPlan', api.activeSessionId, 'on-disk');
      await waitFor('the plan file in an editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === file);
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it('keeps the plans when the session is loaded again (session/load replay)', async () => {
    const before = api.plans().map((p) => p.planId);
    await reloadActiveSession(api);
    assert.deepEqual(api.plans().map((p) => p.planId), before);
  });
});

describe('plans from a Claude-like agent that acts as if the client had not advertised them', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: { name: 'claude-like-legacy', file: 'claudeLikeAgent', args: ['--ignore-capabilities', 'plan'] } }, (started) => (api = started));

  it('gets no plan_update (as Claude sends none), and the plan-mode turn still works', async () => {
    const turn = api.prompt('plan-mode');
    const question = await waitFor('the Approve Plan question', () => api.pendingPermissions().find((q) => q.title.includes('Approve Plan')));
    api.answerPermission(question.id, 'allow_once');
    assert.equal(await within('the plan-mode turn', turn), 'end_turn');
    assert.deepEqual(api.plans(), []);
  });
});
