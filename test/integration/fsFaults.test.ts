import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { inWorkspace, setSetting, waitFor, within, dirtyDocument, runScenario as run, type Reported, revertAll } from './support/helpers';
import { agentSuite } from './support/agentSuite';

// The fault cases of issue 13 that concern the agent's file requests, each as a user would meet
// it: what the agent gets back, what is on disk, what is in the editor, what is left to review.

function failed(result: Reported, pattern: RegExp): void {
  assert.ok(!result.ok && pattern.test(result.message), JSON.stringify(result));
  assert.ok(!/^Internal error$/.test(result.message), 'never a bare "Internal error"');
}

describe('file requests under faults lose nothing', function () {
  let api: AcpNativeApi;
  /** What the action log lists of the agent's `fs/write_text_file`s (not the tests' own writes a command's grace may list). */
  const fsWrites = () => api.changes().filter((c) => c.source === 'fs');

  agentSuite({ settings: { 'acpNative.files.outsideWorkspace': 'refuse' } }, (started) => (api = started));

  afterEach(revertAll);

  it('refuses a Latin-1 file open in an editor instead of serving or saving replacement characters', async () => {
    const file = inWorkspace('src/latin1.txt');
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n"
    fs.writeFileSync(file, latin1);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const read = await run(api, `fs-read ${file}`);
    failed(read, /latin1\.txt is not UTF-8 text/);
    const write = await run(api, `fs-write ${file}\ncafé edited`);
    failed(write, /latin1\.txt is not UTF-8 text.*not written/);
    assert.deepEqual(fs.readFileSync(file), latin1, 'the bytes on disk are untouched');
    assert.equal(fsWrites().find((c) => c.path === file), undefined, 'a refused write leaves nothing to review');
  });

  it('writes only the changed line of a file with mixed line endings', async () => {
    const file = inWorkspace('src/mixed.txt');
    fs.writeFileSync(file, 'one\r\ntwo\nthree\r\nfour\n');
    const result = await run(api, `fs-write ${file}\none\ntwo\nTHREE\nfour\n`);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(fs.readFileSync(file, 'latin1'), 'one\r\ntwo\nTHREE\r\nfour\n');
  });

  it('reads and writes through a symlink as the file it points to: unsaved text served, overwrite asked', async () => {
    const target = inWorkspace('src/linked.txt');
    const alias = inWorkspace('alias.txt');
    fs.writeFileSync(target, 'saved text\n');
    fs.symlinkSync(path.join('src', 'linked.txt'), alias);
    const doc = await dirtyDocument(target, 'my unsaved work\n');
    const read = await run(api, `fs-read ${alias}`);
    assert.deepEqual(read, { ok: true, result: { content: 'my unsaved work\n' } });
    const turn = run(api, `fs-write ${alias}\nagent text`);
    const question = await waitFor('the overwrite question', () => api.pendingPermissions()[0]);
    assert.match(question.title, /Overwrite unsaved changes in src\/linked\.txt/);
    assert.ok(api.answerPermission(question.id, 'reject_once'));
    failed(await turn, /unsaved changes that the user chose to keep/);
    assert.equal(doc.getText(), 'my unsaved work\n');
    assert.equal(fs.readFileSync(target, 'utf8'), 'saved text\n');
    assert.deepEqual(fsWrites().filter((c) => c.path === target || c.path === alias), [], 'nothing to review');
    // Saved: the write goes through the link to the file, and is reviewed as that file.
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal((await run(api, `fs-write ${alias}\nagent text`)).ok, true);
    assert.equal(fs.readFileSync(target, 'utf8'), 'agent text');
    assert.ok(fs.lstatSync(alias).isSymbolicLink(), 'the link is still a link');
    assert.deepEqual(fsWrites().filter((c) => c.path === target || c.path === alias).map((c) => c.path), [target]);
  });

  it('serializes concurrent writes to one file spelled three ways; none is lost', async () => {
    const file = inWorkspace('src/spelled.txt');
    fs.writeFileSync(file, 'start\n');
    const spellings = [inWorkspace('src/../src/spelled.txt'), `${inWorkspace('.')}/./src/spelled.txt`, file];
    const result = await run(api, `fs-write-spellings ${spellings.join(' ')}`);
    assert.deepEqual(result, { ok: true, result: ['ok', 'ok', 'ok'] });
    assert.equal(fs.readFileSync(file, 'utf8'), 'write 3\n', 'the last write lands last');
    assert.deepEqual(fsWrites().filter((c) => c.path.endsWith('spelled.txt')).map((c) => c.path), [file], 'one file, one change');
  });

  it('says what went wrong: a directory, a binary file, a dangling symlink', async () => {
    const dir = inWorkspace('src');
    failed(await run(api, `fs-write ${dir}\ntext`), /src is a directory/);
    failed(await run(api, `fs-read ${dir}`), /src is a directory/);
    const binary = inWorkspace('blob.bin');
    fs.writeFileSync(binary, Buffer.from([0x89, 0x50, 0x00, 0x01]));
    failed(await run(api, `fs-write ${binary}\ntext`), /blob\.bin is a binary file/);
    assert.deepEqual([...fs.readFileSync(binary)], [0x89, 0x50, 0x00, 0x01]);
    const dangling = inWorkspace('dangling.txt');
    fs.symlinkSync(inWorkspace('nowhere/missing.txt'), dangling);
    failed(await run(api, `fs-read ${dangling}`), /dangling\.txt is a symbolic link to nowhere\/missing\.txt, which does not exist/);
    failed(await run(api, `fs-write ${dangling}\ntext`), /symbolic link to nowhere\/missing\.txt/);
    assert.ok(!fs.existsSync(inWorkspace('nowhere')), 'nothing created where the link points');
    const paths = [dir, binary, dangling];
    assert.deepEqual(fsWrites().filter((c) => paths.includes(c.path)), [], 'refused writes leave nothing to review');
  });

  it('closes the overwrite question when the agent cancels the write; a late answer writes nothing', async () => {
    const file = inWorkspace('src/cancelled-write.txt');
    const gate = inWorkspace('cancel-now.gate');
    fs.writeFileSync(file, 'saved\n');
    const doc = await dirtyDocument(file, 'unsaved\n');
    const turn = run(api, `fs-write-cancel ${file} ${gate}\nagent text`);
    const question = await waitFor('the overwrite question', () => api.pendingPermissions()[0]);
    fs.writeFileSync(gate, '');
    await waitFor('the question to close', () => api.pendingPermissions().length === 0);
    const result = await turn;
    assert.ok(!result.ok && result.code === -32800, JSON.stringify(result));
    assert.equal(api.answerPermission(question.id, 'allow_once'), false, 'a late answer does nothing');
    assert.equal(doc.getText(), 'unsaved\n');
    assert.ok(doc.isDirty);
    assert.equal(fs.readFileSync(file, 'utf8'), 'saved\n');
    assert.equal(fsWrites().find((c) => c.path === file), undefined);
  });

  it('closes the outside-the-workspace question when the agent cancels terminal/create; nothing runs', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
    const gate = inWorkspace('cancel-terminal.gate');
    const terminalsBefore = vscode.window.terminals.length;
    await setSetting('acpNative.files.outsideWorkspace', 'ask');
    let result: Reported;
    let question: { id: number };
    try {
      const turn = run(api, `terminal-create-cancel ${outside} ${gate}`);
      question = await waitFor('the outside-the-workspace question', () => api.pendingPermissions()[0]);
      fs.writeFileSync(gate, '');
      await waitFor('the question to close', () => api.pendingPermissions().length === 0);
      result = await turn;
    } finally {
      fs.writeFileSync(gate, '');
      await setSetting('acpNative.files.outsideWorkspace', 'refuse');
      fs.rmSync(outside, { recursive: true, force: true });
    }
    assert.ok(!result.ok && result.code === -32800, JSON.stringify(result));
    assert.equal(api.answerPermission(question.id, 'allow_once'), false, 'a late answer does nothing');
    assert.equal(vscode.window.terminals.length, terminalsBefore, 'no terminal was started');
  });

  it('refuses a permission request without options at once instead of hanging the turn', async () => {
    const stop = await within('the turn', api.prompt('permission-no-options'));
    assert.equal(stop, 'end_turn');
    const result = await waitFor('the reported result', () => api.toolCalls().find((c) => c.title === 'Ask with no options')?.rawOutput as Reported | undefined);
    assert.ok(!result.ok && result.code === -32602 && /at least one option/.test(result.message), JSON.stringify(result));
    assert.deepEqual(api.pendingPermissions(), []);
    assert.equal(api.toolCalls().find((c) => c.title === 'Do something'), undefined, 'no card for a request that was refused');
  });
});
