import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { fence, inWorkspace, lastCall, waitFor, within, revertAll } from './support/helpers';
import { agentSuite } from './support/agentSuite';

/** The extension advertises fs/*, so the bundled agent's file changes go through the editor. */
describe('bundled agent files through the editor', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: 'bundled', settings: { 'acpNative.diff.autoOpen': 'onClick' } }, (started) => (api = started));

  afterEach(revertAll);

  it('records an /edit for review, and Undo restores the exact previous bytes', async () => {
    const file = inWorkspace('notes/bom-crlf.txt');
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('alpha\r\nbeta\r\ngamma\r\n')]);
    fs.mkdirSync(inWorkspace('notes'), { recursive: true });
    fs.writeFileSync(file, original);
    const stop = await within('the /edit turn', api.prompt(`/edit notes/bom-crlf.txt\n${fence('beta')}\n${fence('BETA\ndelta')}`));
    assert.equal(stop, 'end_turn');
    const call = lastCall(api);
    assert.equal(call.status, 'completed');
    assert.equal(call.card, 'diff');
    // Written by the editor: the BOM and CRLF endings are kept.
    assert.deepEqual(fs.readFileSync(file), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('alpha\r\nBETA\r\ndelta\r\ngamma\r\n')]));
    // (The test's own write of the file may be listed before, in a turn's grace for commands.)
    const change = api.changes().filter((c) => c.path === file).at(-1);
    assert.deepEqual([change?.created, change?.status, change?.hunks], [false, 'pending', 1]);
    await api.undoHunk(file, 0);
    assert.deepEqual(fs.readFileSync(file), original, 'the exact previous bytes');
    assert.equal(api.changes().filter((c) => c.path === file).at(-1)?.status, 'undone');
  });

  it('asks before an /edit overwrites unsaved changes; "Keep My Changes" fails the call and changes nothing', async () => {
    const file = inWorkspace('notes/dirty.txt');
    fs.mkdirSync(inWorkspace('notes'), { recursive: true });
    fs.writeFileSync(file, 'one\ntwo\n');
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((b) => b.insert(doc.positionAt(doc.getText().length), 'my unsaved line\n'));
    assert.ok(doc.isDirty);

    // The agent reads the unsaved text: its old_string is only there, not on disk.
    const turn = within('the /edit turn', api.prompt(`/edit notes/dirty.txt\n${fence('my unsaved line')}\n${fence('agent line')}`));
    const question = await waitFor('the overwrite question', () => api.pendingPermissions().find((p) => /^Overwrite unsaved changes in /.test(p.title)));
    assert.match(question.title, /notes\/dirty\.txt/);
    assert.ok(api.answerPermission(question.id, 'reject_once'));
    assert.equal(await turn, 'end_turn');

    const call = lastCall(api);
    assert.match(call.agentTitle, /^Edit .*notes\/dirty\.txt$/);
    assert.equal(call.status, 'failed');
    // The failure shows the editor's own answer.
    const note = call.tree.children.find((c) => c.icon === 'note');
    assert.match(note?.label ?? '', /^Could not write .*notes\/dirty\.txt through the c/);
    const shown = await vscode.workspace.openTextDocument(note?.command?.arguments[0] as vscode.Uri);
    assert.match(shown.getText(), /dirty\.txt has unsaved changes that the user chose to keep; the file was not written\./);
    assert.equal(doc.getText(), 'one\ntwo\nmy unsaved line\n');
    assert.ok(doc.isDirty, 'still unsaved');
    assert.equal(fs.readFileSync(file, 'utf8'), 'one\ntwo\n');
  });
});
