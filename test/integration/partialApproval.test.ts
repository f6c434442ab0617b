import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi, PartialApprovalInfo, PendingPermission, RenderedTreeItem } from '../../src/extension/api/api';
import { diffTabs, dirtyDocument, fence, inWorkspace, revertAll, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

const BEFORE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';
const AFTER = 'ONE\ntwo\nthree\nfour\nFIVE\nsix\nseven\neight\nnine\nTEN\n';
/** BEFORE with hunks 1 and 3 of AFTER. */
const KEPT_1_3 = 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nTEN\n';

const DISK = { name: 'disk-edit', file: 'diskEditAgent' };

function freshFile(rel: string, text: string | Buffer): string {
  const file = inWorkspace(rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const question = (api: AcpNativeApi): Promise<PendingPermission> => waitFor('the permission question', () => api.pendingPermissions()[0]);

const outcomeOf = (api: AcpNativeApi, file: string): Promise<PartialApprovalInfo> =>
  waitFor(`the outcome for ${file}`, () => api.partialApprovals().filter((p) => p.path === file && p.status !== 'waiting' && p.told !== undefined).at(-1), 20_000, () => JSON.stringify(api.partialApprovals()));

const agentTexts = (api: AcpNativeApi) => api.conversation().filter((m) => m.role === 'agent').map((m) => m.text);

async function askAgent<T>(api: AcpNativeApi, what: 'steers?' | 'prompts?'): Promise<T> {
  await within(what, api.prompt(what));
  return JSON.parse(agentTexts(api).at(-1) ?? '') as T;
}

describe('partial approval: an agent writing through fs/write_text_file (the bundled agent)', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: 'bundled', settings: { 'acpNative.permissions.autoApprove': 'never' } }, (started) => (api = started));

  it('keeps hunks 1 and 3 of 3: the file is byte for byte the text before with those two', async () => {
    const file = freshFile('partial/fs.txt', BEFORE);
    const turn = api.prompt(`/write partial/fs.txt\n${fence(AFTER.slice(0, -1))}`);
    const q = await question(api);
    assert.equal(q.hunks, 3);
    assert.equal(api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] }), true);
    await within('the turn', turn);
    assert.equal(fs.readFileSync(file, 'utf8'), KEPT_1_3);
    const outcome = await outcomeOf(api, file);
    assert.equal(outcome.status, 'applied');
    assert.deepEqual([outcome.kept, outcome.reverted], [[0, 2], [1]]);
    assert.match(outcome.note, /2 of 3 hunks kept: hunk 2 not written/);
    // The bundled agent takes no steering: it hears of it with the next prompt.
    assert.match(outcome.told ?? '', /told with your next prompt/);
  });

  it('keeps a BOM and CRLF line endings byte for byte', async () => {
    const crlf = (t: string) => t.replace(/\n/g, '\r\n');
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const file = freshFile('partial/fs-crlf.txt', Buffer.concat([bom, Buffer.from(crlf(BEFORE))]));
    const turn = api.prompt(`/write partial/fs-crlf.txt\n${fence(crlf(AFTER).slice(0, -2))}`);
    const q = await question(api);
    assert.equal(q.hunks, 3);
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] });
    await within('the turn', turn);
    const outcome = await outcomeOf(api, file);
    assert.equal(outcome.status, 'applied', outcome.note);
    assert.deepEqual(fs.readFileSync(file), Buffer.concat([bom, Buffer.from(crlf(KEPT_1_3))]));
  });

  it('refuses hunks the question does not have, and answers nothing', async () => {
    freshFile('partial/fs-bad.txt', BEFORE);
    const turn = api.prompt(`/write partial/fs-bad.txt\n${fence(AFTER.slice(0, -1))}`);
    const q = await question(api);
    assert.throws(() => api.answerPermission(q.id, 'allow_once', { keepHunks: [3] }), /hunk 3 does not exist \(the edit has 3 hunks/);
    assert.throws(() => api.answerPermission(q.id, 'reject_once', { keepHunks: [0] }), /keepHunks goes with an allow answer/);
    assert.equal(api.pendingPermissions()[0]?.id, q.id, 'still open');
    assert.equal(api.answerPermission(q.id, 'reject_once'), true);
    await within('the turn', turn);
  });
});

describe('partial approval: an agent writing to disk itself (Claude-like Write)', function () {
  this.timeout(90_000);
  let api: AcpNativeApi;
  agentSuite({ agent: DISK }, (started) => (api = started));
  afterEach(() => revertAll());

  it('keeps hunks 1 and 3 of 3: the agent writes all, hunk 2 is undone byte-exact, and the agent is steered with hunk 2', async () => {
    const file = freshFile('partial/disk.txt', BEFORE);
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    assert.equal(q.hunks, 3, 'the whole new file (oldText null) is compared with the file as it is');
    assert.equal(api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] }), true);
    const outcome = await outcomeOf(api, file);
    assert.equal(outcome.status, 'applied', outcome.note);
    assert.match(outcome.note, /2 of 3 hunks kept: hunk 2 reverted/);
    assert.equal(fs.readFileSync(file, 'utf8'), KEPT_1_3);
    assert.match(outcome.told ?? '', /steered/);
    await within('the turn', turn);
    const steers = (await askAgent<{ steers: string[] }>(api, 'steers?')).steers;
    const told = steers.at(-1) ?? '';
    assert.match(told, /disk\.txt only in part: 2 of 3 hunks kept/);
    assert.match(told, /Reverted hunks \(the file does not contain them\): 2\./);
    assert.match(told, /-five\n\+FIVE/);
    assert.match(told, /Do not re-apply the reverted parts unless asked/);
    const notice = api.notices().find((n) => n.title === 'partial/disk.txt: 2 of 3 hunks kept: hunk 2 reverted');
    assert.ok(notice, JSON.stringify(api.notices()));
    assert.match(notice.description ?? '', /The agent was told at once \(steered\)/);
    // Review: hunks 1 and 3 kept, hunk 2 undone.
    const change = api.changes().filter((c) => c.path === file).at(-1);
    assert.equal(change?.status, 'partial');
    assert.deepEqual(change?.hunkStates, ['kept', 'undone', 'kept']);
    const find = (items: RenderedTreeItem[]): RenderedTreeItem | undefined => items.map((c) => (c.label === 'partial/disk.txt' && c.description?.includes('kept') ? c : find(c.children))).find(Boolean);
    const item = await waitFor('the Review row', () => find(api.sessionTree()?.children ?? []), 15_000, () => JSON.stringify(api.sessionTree()));
    assert.match(item.description ?? '', /2 of 3 hunks kept$/);
  });

  it("offers Codex's patch in hunks though its question carries no diff: the call's card has it", async () => {
    const file = freshFile('partial/codex.txt', BEFORE);
    const turn = api.prompt(`patch-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    assert.deepEqual(q.options.map((o) => o.optionId), ['allow_once', 'allow_for_session', 'cancel']);
    assert.equal(q.hunks, 3, "the diff of the tool_call before the question, Codex's way");
    assert.equal(api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] }), true);
    const outcome = await outcomeOf(api, file);
    assert.equal(outcome.status, 'applied', outcome.note);
    assert.equal(fs.readFileSync(file, 'utf8'), KEPT_1_3);
    await within('the turn', turn);
  });

  it('re-applies the reverted hunk from Review: the row offers it, the file holds all three, the agent hears it', async () => {
    const file = freshFile('partial/reapply.txt', BEFORE);
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] });
    const outcome = await outcomeOf(api, file);
    assert.equal(outcome.status, 'applied', outcome.note);
    await within('the turn', turn);
    assert.equal(fs.readFileSync(file, 'utf8'), KEPT_1_3);

    // The Review row offers Re-apply Undone Hunks (its menu entry's `when` matches the row).
    const find = (items: RenderedTreeItem[]): RenderedTreeItem | undefined => items.map((c) => (c.label === 'partial/reapply.txt' ? c : find(c.children))).find(Boolean);
    const row = await waitFor('the Review row', () => find(api.sessionTree()?.children ?? []), 15_000, () => JSON.stringify(api.sessionTree()));
    const menus = (vscode.extensions.getExtension('acp-native.acp-native')?.packageJSON as { contributes: { menus: Record<string, { command: string; when?: string }[]> } }).contributes.menus;
    const when = menus['view/item/context']?.find((m) => m.command === 'acpNative.review.reapply')?.when ?? '';
    const regex = /viewItem =~ \/(.+)\/$/.exec(when)?.[1];
    assert.ok(regex && new RegExp(regex).test(row.contextValue ?? ''), `${row.contextValue} against ${when}`);

    // Re-applied from the row as the menu runs it (the row's node): hunk 2 is back as the agent wrote it, and kept.
    await vscode.commands.executeCommand('acpNative.review.reapply', row.command?.arguments[0]);
    assert.equal(fs.readFileSync(file, 'utf8'), AFTER);
    const change = api.changes().filter((c) => c.path === file).at(-1);
    assert.deepEqual(change?.hunkStates, ['kept', 'kept', 'kept']);
    const after = await waitFor('the row without Re-apply', () => {
      const now = find(api.sessionTree()?.children ?? []);
      return now && !new RegExp(regex).test(now.contextValue ?? '') && now;
    });
    assert.match(after.description ?? '', /kept$/);
    const notice = await waitFor('the card', () => api.notices().find((n) => n.title === 'partial/reapply.txt: hunk 2 re-applied from Review'));
    assert.match(notice.description ?? '', /told with your next prompt/);

    // The agent hears of the re-apply with the next prompt (Undo after a re-apply: the action log's lens test).
    await within('the next prompt', api.prompt('carry on'));
    const prompts = (await askAgent<{ prompts: string[] }>(api, 'prompts?')).prompts;
    assert.match(prompts.at(-1) ?? '', /re-applied from Review part of your edit of partial\/reapply\.txt[\s\S]*-five\n\+FIVE[\s\S]*carry on$/);
  });

  it('keeps CRLF line endings byte for byte (the agent writes no BOM, so none comes back)', async () => {
    const crlf = (s: string) => s.replace(/\n/g, '\r\n');
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const file = freshFile('partial/crlf.txt', Buffer.concat([bom, Buffer.from(crlf(BEFORE))]));
    // Claude's Write writes the text as given: the BOM is not in it, so it goes.
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(crlf(AFTER))}`);
    const q = await question(api);
    assert.equal(q.hunks, 3);
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] });
    const outcome = await outcomeOf(api, file);
    await within('the turn', turn);
    assert.equal(outcome.status, 'applied', outcome.note);
    assert.equal(fs.readFileSync(file).toString('utf8'), crlf(KEPT_1_3));
  });

  it('never loses an unsaved user edit: nothing is reverted, and the card says why', async () => {
    const file = freshFile('partial/dirty.txt', BEFORE);
    const doc = await dirtyDocument(file, BEFORE.replace('seven', 'seven (mine)'));
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    const hunks = q.hunks ?? 0;
    assert.ok(hunks >= 3, String(hunks));
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, hunks - 1] });
    const outcome = await outcomeOf(api, file);
    await within('the turn', turn);
    assert.equal(outcome.status, 'not-reverted');
    assert.match(outcome.note, /unsaved changes in the editor: nothing was reverted/);
    assert.ok(doc.isDirty);
    assert.match(doc.getText(), /seven \(mine\)/, 'the user edit is still in the editor');
    assert.equal(fs.readFileSync(file, 'utf8'), AFTER, 'the agent’s write stands; nothing was undone blindly');
    const notice = await waitFor('the card', () => api.notices().find((n) => n.title.startsWith('partial/dirty.txt: the file has unsaved changes')));
    assert.equal(notice.severity, 'warning');
  });

  it('reverts nothing when the agent writes something other than it proposed', async () => {
    const file = freshFile('partial/other.txt', BEFORE);
    const turn = api.prompt(`write-other ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] });
    const outcome = await outcomeOf(api, file);
    await within('the turn', turn);
    assert.equal(outcome.status, 'not-reverted');
    assert.match(outcome.note, /something other than it proposed: nothing was reverted/);
    assert.equal(fs.readFileSync(file, 'utf8'), `${AFTER}surprise\n`);
  });

  it('a write that never lands: after the bounded wait (30 s) the card says nothing was reverted', async function () {
    this.timeout(60_000);
    const file = freshFile('partial/never.txt', BEFORE);
    const turn = api.prompt(`write-never ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    const answeredAt = Date.now();
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] });
    await within('the turn', turn);
    assert.equal(api.partialApprovals().filter((p) => p.path === file).at(-1)?.status, 'waiting');
    const outcome = await waitFor('the wait given up', () => api.partialApprovals().filter((p) => p.path === file && p.status !== 'waiting').at(-1), 45_000, () => JSON.stringify(api.partialApprovals()));
    assert.ok(Date.now() - answeredAt >= 29_000, `gave up after ${Date.now() - answeredAt} ms`);
    assert.equal(outcome.status, 'not-reverted');
    assert.match(outcome.note, /the agent's write did not land within 30 s: nothing was reverted/);
    assert.equal(fs.readFileSync(file, 'utf8'), BEFORE, 'nothing written, nothing undone');
    const notice = await waitFor('the card', () => api.notices().find((n) => n.title.startsWith('partial/never.txt: the agent')));
    assert.equal(notice.severity, 'warning');
  });

  it('undoes the rejected hunk once when the agent writes the proposal twice in one call', async () => {
    const file = freshFile('partial/twice.txt', BEFORE);
    const turn = api.prompt(`write-twice ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] });
    const outcome = await outcomeOf(api, file);
    await within('the turn', turn);
    assert.equal(outcome.status, 'applied', outcome.note);
    assert.equal(fs.readFileSync(file, 'utf8'), KEPT_1_3);
  });

  it('rejects with a reason: the agent is told it', async () => {
    const file = freshFile('partial/reject.txt', BEFORE);
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    assert.equal(api.answerPermission(q.id, 'reject_once', { reason: 'keep the numbers lower case' }), true);
    await waitFor('the rejection told', () => api.partialApprovals().find((p) => p.path === file && p.told));
    await within('the turn', turn);
    assert.equal(fs.readFileSync(file, 'utf8'), BEFORE);
    const steers = (await askAgent<{ steers: string[] }>(api, 'steers?')).steers;
    assert.match(steers.at(-1) ?? '', /The user rejected "Write reject\.txt"\. Their reason: keep the numbers lower case/);
  });

  it('Review hunks: the diff with Keep / Reject lenses over each hunk, then Allow selected', async () => {
    const file = freshFile('partial/review.txt', BEFORE);
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    await vscode.commands.executeCommand('acpNative.partial.reviewHunks', q.id);
    const tab = await waitFor('the review diff', () => diffTabs().find((t) => t.label.includes('review.txt: choose the hunks to keep')));
    const right = tab.input.modified;
    const lensTitles = async () => ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', right, 100)) ?? []).map((l) => l.command?.title ?? '');
    assert.deepEqual(await lensTitles(), ['Allow selected (3 of 3 hunks kept)', 'Reject…', 'Hunk 1: Keep ✓ · Reject', 'Hunk 2: Keep ✓ · Reject', 'Hunk 3: Keep ✓ · Reject']);
    await vscode.commands.executeCommand('acpNative.partial.toggleHunk', q.id, 1);
    assert.deepEqual((await lensTitles()).slice(0, 1).concat((await lensTitles()).slice(3)), ['Allow selected (2 of 3 hunks kept)', 'Hunk 2: Keep · Reject ✓', 'Hunk 3: Keep ✓ · Reject']);
    assert.equal(await vscode.commands.executeCommand('acpNative.partial.allowSelected', q.id), true);
    const outcome = await outcomeOf(api, file);
    await within('the turn', turn);
    assert.equal(outcome.status, 'applied', outcome.note);
    assert.equal(fs.readFileSync(file, 'utf8'), KEPT_1_3);
    await waitFor('the review diff closed', () => !diffTabs().some((t) => t.input.modified.toString() === right.toString()));
  });

  it('a question cancelled while its Review hunks editor is open: the lenses say so, and nothing more is answered', async () => {
    const file = freshFile('partial/cancelled.txt', BEFORE);
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    await vscode.commands.executeCommand('acpNative.partial.reviewHunks', q.id);
    const tab = await waitFor('the review diff', () => diffTabs().find((t) => t.label.includes('cancelled.txt: choose the hunks to keep')));
    await api.cancel();
    await within('the turn', turn);
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', tab.input.modified, 100)) ?? [];
    assert.deepEqual(lenses.map((l) => l.command?.title), ['This question is no longer open (answered or cancelled): nothing more to choose']);
    assert.equal(api.answerPermission(q.id, 'allow_once', { keepHunks: [0] }), false);
    assert.equal(fs.readFileSync(file, 'utf8'), BEFORE);
  });
});

describe('partial approval: an agent that takes no steering hears it with the next prompt', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: { ...DISK, name: 'disk-edit-no-steering', args: ['--no-steering'] } }, (started) => (api = started));

  it('prepends the outcome to the next prompt', async () => {
    const file = freshFile('partial/next.txt', BEFORE);
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] });
    const outcome = await outcomeOf(api, file);
    await within('the turn', turn);
    assert.equal(outcome.status, 'applied', outcome.note);
    assert.match(outcome.told ?? '', /told with your next prompt/);
    await within('the next prompt', api.prompt('carry on'));
    const prompts = (await askAgent<{ prompts: string[] }>(api, 'prompts?')).prompts;
    const next = prompts.at(-1) ?? '';
    assert.match(next, /what happened to your last edit request/);
    assert.match(next, /Reverted hunks \(the file does not contain them\): 2\./);
    assert.match(next, /carry on$/);
  });
});

describe('partial approval: a steer that fails falls back to the next prompt', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: { ...DISK, name: 'disk-edit-steer-fails', args: ['--steer-fail'] } }, (started) => (api = started));

  it('says so on the card and tells the agent with the next prompt', async () => {
    const file = freshFile('partial/steer-fails.txt', BEFORE);
    const turn = api.prompt(`write-file ${file}\n${JSON.stringify(AFTER)}`);
    const q = await question(api);
    api.answerPermission(q.id, 'allow_once', { keepHunks: [0, 2] });
    const outcome = await outcomeOf(api, file);
    await within('the turn', turn);
    assert.equal(fs.readFileSync(file, 'utf8'), KEPT_1_3);
    assert.match(outcome.told ?? '', /^not steered \(.*steering is broken.*\): the agent is told with your next prompt$/);
    const notice = api.notices().find((n) => n.title === 'partial/steer-fails.txt: 2 of 3 hunks kept: hunk 2 reverted');
    assert.match(notice?.description ?? '', /Not steered/);
    await within('the next prompt', api.prompt('carry on'));
    const prompts = (await askAgent<{ prompts: string[] }>(api, 'prompts?')).prompts;
    assert.match(prompts.at(-1) ?? '', /Reverted hunks \(the file does not contain them\): 2\.[\s\S]*carry on$/);
  });
});
