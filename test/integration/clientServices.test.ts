import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { allTabs, getApi, inWorkspace, isMultiRoot, lastCall, setSetting, startTestAgent, waitFor, within, dirtyDocument, runScenario as run, revertAll } from './support/helpers';
import { agentSuite } from './support/agentSuite';

describe('client services that lose nothing', function () {
  let api: AcpNativeApi;

  agentSuite({ settings: { 'acpNative.files.outsideWorkspace': 'refuse' } }, (started) => (api = started));

  afterEach(revertAll);

  describe('fs/read_text_file', () => {
    it('returns the unsaved text of an open document, sliced by line and limit', async () => {
      const file = inWorkspace('src/read-me.ts');
      fs.writeFileSync(file, 'on disk\n');
      await dirtyDocument(file, 'one\ntwo\nthree\nfour');
      const all = await run(api, `fs-read ${file}`);
      assert.deepEqual(all, { ok: true, result: { content: 'one\ntwo\nthree\nfour' } });
      const slice = await run(api, `fs-read ${file} 2 2`);
      assert.deepEqual(slice, { ok: true, result: { content: 'two\nthree' } });
    });

    it('refuses a binary file with a clear error instead of mojibake', async () => {
      const file = inWorkspace('image.bin');
      fs.writeFileSync(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]));
      const result = await run(api, `fs-read ${file}`);
      assert.equal(result.ok, false);
      assert.ok(!result.ok && result.code === -32602 && /binary/.test(result.message), JSON.stringify(result));
    });

    it('refuses a relative path and a line past the end', async () => {
      const relative = await run(api, 'fs-read src/greet.ts');
      assert.ok(!relative.ok && /absolute/.test(relative.message), JSON.stringify(relative));
      const past = await run(api, `fs-read ${inWorkspace('src/math.js')} 999`);
      assert.ok(!past.ok && /past the end/.test(past.message), JSON.stringify(past));
    });

    it('refuses ../ traversal and a symlink that escapes the workspace', async () => {
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
      fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
      const traversal = await run(api, `fs-read ${inWorkspace('src')}/../../${path.basename(outside)}/secret.txt`);
      assert.ok(!traversal.ok && /outside the workspace/.test(traversal.message), JSON.stringify(traversal));
      fs.symlinkSync(outside, inWorkspace('escape'));
      const viaLink = await run(api, `fs-read ${inWorkspace('escape/secret.txt')}`);
      assert.ok(!viaLink.ok && /outside the workspace/.test(viaLink.message), JSON.stringify(viaLink));
      const write = await run(api, `fs-write ${inWorkspace('escape/new.txt')}\npwned`);
      assert.equal(write.ok, false);
      assert.ok(!fs.existsSync(path.join(outside, 'new.txt')), 'nothing was written outside');
      fs.rmSync(outside, { recursive: true, force: true });
    });

    it('asks before going outside the workspace when set to ask, and refuses on "Refuse"', async () => {
      await setSetting('acpNative.files.outsideWorkspace', 'ask');
      try {
        const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-outside-'));
        fs.writeFileSync(path.join(outside, 'notes.txt'), 'outside notes');
        const turn = run(api, `fs-read ${path.join(outside, 'notes.txt')}`);
        const question = await waitFor('the question', () => api.pendingPermissions()[0]);
        assert.match(question.title, /outside the workspace/);
        assert.ok(api.answerPermission(question.id, 'reject_once'));
        const refused = await turn;
        assert.ok(!refused.ok && /outside the workspace/.test(refused.message));
        const again = run(api, `fs-read ${path.join(outside, 'notes.txt')}`);
        const second = await waitFor('the second question', () => api.pendingPermissions()[0]);
        assert.ok(api.answerPermission(second.id, 'allow_once'));
        assert.deepEqual(await again, { ok: true, result: { content: 'outside notes' } });
        fs.rmSync(outside, { recursive: true, force: true });
      } finally {
        await setSetting('acpNative.files.outsideWorkspace', 'refuse');
      }
    });
  });

  describe('fs/write_text_file', () => {
    it('keeps CRLF line endings and the BOM of the file it writes', async () => {
      const file = inWorkspace('src/windows.txt');
      fs.writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('old\r\ntext\r\n')]));
      const result = await run(api, `fs-write ${file}\nnew\nlines\n`);
      assert.equal(result.ok, true, JSON.stringify(result));
      const bytes = fs.readFileSync(file);
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'BOM kept');
      assert.equal(bytes.subarray(3).toString('utf8'), 'new\r\nlines\r\n');
    });

    it('creates missing folders and files, and review Undo removes what it created', async () => {
      const file = inWorkspace('generated/deep/new.md');
      const result = await run(api, `fs-write ${file}\n# Generated`);
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(fs.readFileSync(file, 'utf8'), '# Generated');
      const change = api.changes().filter((c) => c.path === file).at(-1);
      assert.deepEqual([change?.source, change?.created, change?.status], ['fs', true, 'pending']);
      await api.undoHunk(file, 0);
      assert.ok(!fs.existsSync(file), 'the created file is gone');
    });

    it('opens a turn\'s changes together in the multi-diff editor for review', async () => {
      const a = inWorkspace('src/review-a.txt');
      fs.writeFileSync(a, 'before a\n');
      const turn = within('a two-file turn', api.prompt(`fs-write ${a}\nafter a`));
      await turn;
      assert.deepEqual(api.changes().filter((c) => c.path === a).map((c) => [c.source, c.status]), [['fs', 'pending']]);
      await vscode.commands.executeCommand('acpNative.reviewChanges');
      // VS Code appends the count of files (the turn's changes: the agent's write, and any file event
      // a command's grace saw meanwhile) to the title, once.
      await waitFor('the review editor', () => allTabs().find((t) => /^Agent changes \(\d+ files?\)$/.test(t.label)), 15_000, () => JSON.stringify(allTabs().map((t) => t.label)));
      // The command given a session and a path (as another extension may call it) keeps that file's change.
      await vscode.commands.executeCommand('acpNative.review.keep', api.activeSessionId, a);
      assert.equal(api.changes().filter((c) => c.path === a).at(-1)?.status, 'kept');
      assert.equal(fs.readFileSync(a, 'utf8'), 'after a');
    });

    it('lands two concurrent writes to one file, in order', async () => {
      const file = inWorkspace('src/twice.txt');
      const result = await run(api, `fs-write-twice ${file}`);
      assert.equal(result.ok, true, JSON.stringify(result));
      assert.equal(fs.readFileSync(file, 'utf8'), 'second\n');
    });

    it('asks before writing under unsaved changes; "Keep My Changes" loses nothing', async () => {
      const file = inWorkspace('src/dirty.ts');
      fs.writeFileSync(file, 'saved text\n');
      const doc = await dirtyDocument(file, 'my unsaved work\n');
      const turn = run(api, `fs-write ${file}\nagent text`);
      const question = await waitFor('the overwrite question', () => api.pendingPermissions()[0]);
      assert.match(question.title, /Overwrite unsaved changes in src\/dirty\.ts/);
      assert.ok(api.answerPermission(question.id, 'reject_once'));
      const result = await turn;
      assert.ok(!result.ok && /unsaved changes/.test(result.message), JSON.stringify(result));
      assert.equal(doc.getText(), 'my unsaved work\n');
      assert.ok(doc.isDirty);
      assert.equal(fs.readFileSync(file, 'utf8'), 'saved text\n');
      assert.equal(api.answerPermission(question.id, 'allow_once'), false, 'a late click does nothing');
    });

    it('"Overwrite" writes, and review Undo restores the exact bytes and the unsaved text', async () => {
      const file = inWorkspace('src/overwrite.txt');
      const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('line 1\r\nline 2\r\n')]);
      fs.writeFileSync(file, original);
      const doc = await dirtyDocument(file, 'line 1\r\nline 2\r\nmy unsaved line\r\n');
      const turn = run(api, `fs-write ${file}\nagent line`);
      const question = await waitFor('the overwrite question', () => api.pendingPermissions()[0]);
      assert.ok(api.answerPermission(question.id, 'allow_once'));
      assert.equal((await turn).ok, true);
      assert.equal(fs.readFileSync(file).subarray(3).toString('utf8'), 'agent line');
      assert.ok(!doc.isDirty);
      await api.undoHunk(file, 0);
      assert.deepEqual(fs.readFileSync(file), original, 'the exact previous bytes');
      await waitFor('the unsaved text back', () => doc.getText().replace(/\r\n/g, '\n') === 'line 1\nline 2\nmy unsaved line\n');
      assert.ok(doc.isDirty, 'and still unsaved');
      assert.equal(api.changes().filter((c) => c.path === file).at(-1)?.status, 'undone');
    });
  });

  describe('agent lifecycle', () => {
    it('answers a request for an unknown method with -32601 instead of leaving the agent hanging', async () => {
      const result = await run(api, 'unknown-method');
      assert.ok(!result.ok && result.code === -32601, JSON.stringify(result));
    });

    it('kills the terminals of an agent that dies', async () => {
      await assert.rejects(within('the crash turn', api.prompt('crash-with-terminal')), /exited with code 9/);
      // VS Code opens the panel (and so renders its output) in its own time: wait for both.
      const terminal = await waitFor('the terminal to end, its output shown', () => {
        const t = lastCall(api).terminal;
        return t?.exit && /long job started/.test(t.output) ? t : undefined;
      });
      assert.equal(terminal.exit?.signal, 'SIGTERM');
      await within('restart', api.restartAgent());
    });

    it('keeps working when the agent prints garbage on stdout', async () => {
      const stop = await within('the garbage turn', api.prompt('garbage'));
      assert.equal(stop, 'end_turn');
      const result = await run(api, `fs-read ${inWorkspace('src/math.js')} 1 1`);
      assert.deepEqual(result, { ok: true, result: { content: 'function add(a, b) {' } });
    });

    it('ends the turn with an error naming the exit code and stderr when the agent dies, and restarts', async () => {
      await assert.rejects(within('the crash turn', api.prompt('crash')), (error: Error) => {
        assert.match(error.message, /exited with code 7/);
        assert.match(error.message, /boom: the test agent crashes on purpose/);
        return true;
      });
      await within('restart', api.restartAgent());
      const result = await run(api, `fs-read ${inWorkspace('src/math.js')} 1 1`);
      assert.equal(result.ok, true);
    });
  });
});

describe('an agent that speaks another protocol version', function () {
  it('fails to start with a clear error', async function () {
    if (isMultiRoot()) this.skip();
    const api = await getApi();
    await startTestAgent(api, 'future', ['--protocol-version', '99']);
    try {
      await assert.rejects(within('new session', api.newSession()), /speaks ACP protocol version 99; ACP Native speaks version 1/);
    } finally {
      await setSetting('acpNative.defaultAgent', undefined);
    }
  });
});

describe('permission prompts of the bundled agent', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: 'bundled', settings: { 'acpNative.permissions.autoApprove': 'never' } }, (started) => (api = started));

  it('answers an open permission prompt "cancelled" when the turn is cancelled; a later click does nothing', async () => {
    const file = inWorkspace('notes/cancelled.md');
    const turn = api.prompt('/write notes/cancelled.md\n```\nshould not exist\n```');
    const question = await waitFor('the permission prompt', () => api.pendingPermissions()[0]);
    assert.match(question.title, /notes\/cancelled\.md/);
    assert.deepEqual(
      question.options.map((o) => o.kind).sort(),
      ['allow_always', 'allow_once', 'reject_always', 'reject_once'],
    );
    await api.cancel();
    assert.equal(await within('the cancelled turn', turn), 'cancelled');
    assert.deepEqual(api.pendingPermissions(), []);
    assert.equal(api.answerPermission(question.id, 'allow_once'), false);
    assert.ok(!fs.existsSync(file), 'nothing was written');
  });
});
