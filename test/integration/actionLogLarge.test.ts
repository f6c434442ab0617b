import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { actionLogSuite, longestBlock } from './support/actionLog';
import { closeAllEditors, inWorkspace, waitFor, within } from './support/helpers';

/** About 5 MB: a BOM, CRLF lines, and bytes that are not UTF-8 (Undo must copy bytes, not decode text). */
function largeFile(): Buffer {
  const lines = Array.from({ length: 150_000 }, (_, i) => `line ${String(i).padStart(6, '0')} of a large generated file\r\n`).join('');
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines, 'latin1'), Buffer.from([0xe9, 0xff, 0x0d, 0x0a])]);
}

describe('action log: files larger than 2 MB, undone as a whole file', function () {
  const suite = actionLogSuite('third-party-large');
  const { changeOf, prompt } = suite;

  it('lists a 5 MB file the agent rewrote in place by itself with undo, shows its copy in the diff, and Undo puts back the exact bytes', async () => {
    const file = inWorkspace('src/large-rewrite.log');
    const original = largeFile();
    fs.writeFileSync(file, original);
    const copiesBefore = suite.api.largeCopies().length;
    await longestBlock('5 MB: the turn that captures and rewrites it', async () => {
      await prompt(`rewrite-in-place ${file} line LINE`);
      await waitFor('the hash of what the agent left', () => changeOf(file)?.checking === false);
    });
    assert.ok(fs.readFileSync(file, 'latin1').startsWith('\u00ef\u00bb\u00bfLINE 000000'), 'the agent rewrote the file');
    const change = changeOf(file);
    assert.ok(change, JSON.stringify(suite.api.changes().map((c) => c.path)));
    assert.deepEqual([change.source, change.status, change.reason, change.wholeFile, change.hunks], ['tool', 'pending', undefined, true, 0]);
    assert.equal(suite.api.largeCopies().length, copiesBefore + 1, 'its text before is a copy in the storage');

    // The review's diff reads the copy (read-only) through VS Code itself.
    const left = await longestBlock('5 MB: the review diff opens', async () => {
      await vscode.commands.executeCommand('acpNative.reviewChanges');
      return waitFor('the diff to open the copy', () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'acp-native-large' && d.uri.path.endsWith('/large-rewrite.log'))?.uri);
    });
    assert.ok(Buffer.from(await vscode.workspace.fs.readFile(left)).equals(original), 'the diff shows the bytes before');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(left, Buffer.from('x'))));

    await closeAllEditors();
    const result = await longestBlock('5 MB: Undo', () => within('Undo', suite.api.undoHunk(file, 0)));
    assert.deepEqual([result.undone, result.refused], [[0], undefined]);
    assert.ok(fs.readFileSync(file).equals(original), 'the file after Undo differs from the file before the agent');
    assert.equal(changeOf(file)?.status, 'undone');
    assert.equal(suite.api.largeCopies().length, copiesBefore, 'the copy left the storage once undone');
  });

  it('refuses Undo when the user changed the file after the agent, or holds unsaved changes, and keeps the user\'s bytes', async () => {
    const file = inWorkspace('src/large-user.log');
    fs.writeFileSync(file, largeFile());
    await prompt(`rewrite-in-place ${file} line LINE`);
    assert.equal(changeOf(file)?.wholeFile, true);
    // What the agent left is hashed off the event loop: the user's edit comes after (else that read says it changed meanwhile).
    await waitFor('the hash of what the agent left', () => changeOf(file)?.checking === false);

    // The user's own edit on disk after the agent's (same size: only the hash tells).
    const agents = fs.readFileSync(file);
    const users = Buffer.from(agents);
    users.write('USER', 3, 'latin1');
    fs.writeFileSync(file, users);
    const refused = await within('Undo', suite.api.undoHunk(file, 0));
    assert.deepEqual(refused.undone, []);
    assert.match(refused.refused ?? '', /changed since the agent wrote it/);
    assert.ok(fs.readFileSync(file).equals(users), 'the user\'s bytes stay');
    assert.equal(changeOf(file)?.status, 'pending');

    // Back to what the agent left, but with unsaved changes in an editor.
    fs.writeFileSync(file, agents);
    const doc = await longestBlock('5 MB: VS Code opens it in an editor', async () => {
      const opened = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(opened);
      return opened;
    });
    await waitFor('the editor to show the agent\'s text', () => doc.getText(new vscode.Range(0, 0, 0, 11)).endsWith('LINE 000000'));
    await longestBlock('5 MB: the user types in it', () => Promise.resolve(vscode.window.activeTextEditor?.edit((b) => b.insert(new vscode.Position(0, 0), 'unsaved '))));
    const dirty = await longestBlock('5 MB: Undo refused (unsaved)', () => within('Undo', suite.api.undoHunk(file, 0)));
    assert.match(dirty.refused ?? '', /unsaved changes/);
    assert.ok(doc.isDirty && doc.getText(new vscode.Range(0, 0, 0, 8)) === 'unsaved ', 'the unsaved text stays');
    assert.ok(fs.readFileSync(file).equals(agents));
  });

  it('restores to before a prompt and takes the restore back, byte for byte, through copies', async () => {
    const file = inWorkspace('src/large-checkpoint.log');
    const original = largeFile();
    fs.writeFileSync(file, original);
    await prompt(`rewrite-in-place ${file} line LINE`);
    const turn = changeOf(file)?.turn;
    assert.ok(turn !== undefined);
    await waitFor('the hash of what the agent left', () => changeOf(file)?.checking === false);
    const agents = fs.readFileSync(file);

    const restored = await within('restore', suite.api.restoreCheckpoint(turn));
    assert.deepEqual([restored.files, restored.refused], [[file], []]);
    assert.ok(fs.readFileSync(file).equals(original), 'the restore put back the bytes before');
    await within('undo restore', suite.api.undoRestore());
    assert.ok(fs.readFileSync(file).equals(agents), 'Undo Restore put back what the agent left');
    assert.equal(changeOf(file)?.status, 'pending', 'and the change can be undone again');
    assert.deepEqual((await within('Undo', suite.api.undoHunk(file, 0))).undone, [0]);
    assert.ok(fs.readFileSync(file).equals(original));
  });

  it('drops the copy from the storage when the change is kept', async () => {
    const file = inWorkspace('src/large-keep.log');
    fs.writeFileSync(file, largeFile());
    const copiesBefore = suite.api.largeCopies().length;
    await prompt(`rewrite-in-place ${file} line LINE`);
    assert.equal(suite.api.largeCopies().length, copiesBefore + 1);
    assert.equal(suite.api.keepHunk(file, 0), true);
    assert.equal(changeOf(file)?.status, 'kept');
    assert.equal(suite.api.largeCopies().length, copiesBefore, 'the copy left the storage once kept');
  });
});
