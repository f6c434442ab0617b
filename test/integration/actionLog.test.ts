import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { actionLogSuite, longestBlock, writeSeen } from './support/actionLog';
import { inWorkspace, waitFor, within } from './support/helpers';

const numbered = (n: number, eol = '\n'): string => Array.from({ length: n }, (_, i) => `line ${i + 1}${eol}`).join('');
const edited = (text: string, lines: number[], eol = '\n'): string =>
  text
    .split(eol)
    .map((l, i) => (lines.includes(i + 1) ? `${l} (edited)` : l))
    .join(eol);

describe('action log: review every agent edit', function () {
  const suite = actionLogSuite('third-party-log', ['--load-session']);
  const { changeOf, prompt } = suite;
  /** The turns that already changed a file: a command's change of it is in none of them. */
  const turnsOf = (file: string) => new Set(suite.api.changes().filter((c) => c.path === file).map((c) => c.turn));

  it('undoes one hunk of a three-hunk edit the agent wrote itself, offering Keep/Undo on each hunk', async () => {
    const file = inWorkspace('src/log-three.txt');
    const original = numbered(40);
    fs.writeFileSync(file, original);
    await prompt(`edit-lines ${file} 5,20,35`);
    const change = changeOf(file);
    assert.ok(change, JSON.stringify(suite.api.changes()));
    assert.deepEqual([change.source, change.hunks, change.status, change.added, change.removed], ['tool', 3, 'pending', 3, 3]);

    // Keep and Undo over each hunk, in the real file.
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    let undoLenses: vscode.CodeLens[] = [];
    for (let tries = 0; tries < 100 && undoLenses.length !== 3; tries++) {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      undoLenses = found.filter((l) => l.command?.title === 'Undo');
      if (undoLenses.length !== 3) await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(
      undoLenses.map((l) => l.range.start.line),
      [4, 19, 34],
    );

    const result = await suite.api.undoHunk(file, 1);
    assert.deepEqual(result.undone, [1]);
    assert.equal(fs.readFileSync(file, 'utf8'), edited(original, [5, 35]));
    assert.equal(suite.api.keepHunk(file, 0), true);
    await suite.api.undoHunk(file, 2);
    assert.equal(fs.readFileSync(file, 'utf8'), edited(original, [5]));
    assert.equal(changeOf(file)?.status, 'partial');
  });

  it('re-applies an undone hunk from its lens as the agent wrote it, and leaves one edited since the undo alone', async () => {
    const file = inWorkspace('src/log-reapply.txt');
    const original = numbered(40);
    fs.writeFileSync(file, original);
    await prompt(`edit-lines ${file} 5,20,35`);
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await suite.api.undoHunk(file, 1);
    await suite.api.undoHunk(file, 2);
    await waitFor('the document to show the undos', () => doc.getText() === edited(original, [5]));
    const reapplyLenses = async (count: number) => {
      let found: vscode.CodeLens[] = [];
      for (let tries = 0; tries < 100 && found.length !== count; tries++) {
        const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
        found = lenses.filter((l) => l.command?.title.endsWith(': Re-apply'));
        if (found.length !== count) await new Promise((r) => setTimeout(r, 50));
      }
      return found;
    };
    // One lens over each undone hunk, where its restored lines stand; Keep / Undo still over the pending one.
    const lenses = await reapplyLenses(2);
    assert.deepEqual(lenses.map((l) => [l.range.start.line, l.command?.title]), [[19, 'Undone agent hunk +1 −1: Re-apply'], [34, 'Undone agent hunk +1 −1: Re-apply']]);

    // The user edits the line the undo of hunk 3 put back: that hunk is not re-applied over it.
    await editor.edit((e) => e.replace(doc.lineAt(34).range, 'my own line 35'));
    await doc.save();
    const [second, third] = lenses;
    await vscode.commands.executeCommand(second?.command?.command ?? '', ...(second?.command?.arguments ?? []));
    await vscode.commands.executeCommand(third?.command?.command ?? '', ...(third?.command?.arguments ?? []));
    assert.equal(fs.readFileSync(file, 'utf8'), edited(original, [5, 20]).replace('line 35\n', 'my own line 35\n'));
    assert.deepEqual(changeOf(file)?.hunkStates, ['pending', 'kept', 'undone']);
    const left = await suite.api.reapplyHunk(file, 2);
    assert.deepEqual([left.reapplied, left.conflicts], [[], [2]]);
    // Undo acts on the re-applied hunk as on any hunk.
    assert.deepEqual((await suite.api.undoHunk(file, 1)).undone, [1]);
    assert.equal(fs.readFileSync(file, 'utf8'), edited(original, [5]).replace('line 35\n', 'my own line 35\n'));
  });

  it('walks the hunks from the keyboard: next / previous hunk, Undo and Keep at the cursor', async () => {
    const file = inWorkspace('src/log-keys.txt');
    const original = numbered(40);
    fs.writeFileSync(file, original);
    await prompt(`edit-lines ${file} 5,20,35`);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    for (let tries = 0; tries < 100; tries++) {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri);
      if (found.filter((l) => l.command?.title === 'Undo').length === 3) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await vscode.commands.executeCommand('acpNative.actionLog.nextHunk');
    assert.equal(editor.selection.active.line, 4);
    await vscode.commands.executeCommand('acpNative.actionLog.nextHunk');
    assert.equal(editor.selection.active.line, 19);
    await vscode.commands.executeCommand('acpNative.actionLog.undoHunkAtCursor');
    await waitFor('the hunk at the cursor undone', () => fs.readFileSync(file, 'utf8') === edited(original, [5, 35]));
    await vscode.commands.executeCommand('acpNative.actionLog.previousHunk');
    assert.equal(editor.selection.active.line, 4);
    await vscode.commands.executeCommand('acpNative.actionLog.keepHunkAtCursor');
    await waitFor('a partial change', () => changeOf(file)?.status === 'partial');
    await vscode.commands.executeCommand('acpNative.actionLog.nextHunk');
    assert.equal(editor.selection.active.line, 34, 'only the pending hunk is left to walk to');
  });

  it('tells the window to ask the hunk lenses again only while an editor on screen can show different ones', async () => {
    // No editor on screen (afterEach closed them): the agent's edit is looked at, and no message goes
    // to the window (in a storm of edits that was one every 50 ms).
    const file = inWorkspace('src/log-lens-quiet.txt');
    fs.writeFileSync(file, numbered(20));
    const before = suite.api.stats().hunkLenses;
    await prompt(`edit-lines ${file} 3`);
    const quiet = await waitFor('the lenses to look at the edit', () => {
      const now = suite.api.stats().hunkLenses;
      return now.checks > before.checks && now;
    });
    assert.equal(quiet.refreshes, before.refreshes, 'no editor on screen shows the file: nothing to ask again');

    // The file on screen: the agent's next edit makes the window ask again, and the lenses show both hunks.
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    await prompt(`edit-lines ${file} 15`);
    await waitFor('the window told to ask the lenses again', () => suite.api.stats().hunkLenses.refreshes > quiet.refreshes);
    // The editor's text follows the file on disk a moment later; until then the hunk reads as edited since.
    let undoLines: number[] = [];
    for (let tries = 0; tries < 100 && undoLines.length !== 1; tries++) {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      undoLines = lenses.filter((l) => l.command?.title === 'Undo').map((l) => l.range.start.line);
      if (undoLines.length !== 1) await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(undoLines, [14]);
  });

  it('rebuilds the text before from the applied hunks when the agent reports only after writing', async () => {
    const file = inWorkspace('src/log-late.txt');
    const original = numbered(30);
    fs.writeFileSync(file, original);
    await prompt(`edit-lines-late ${file} 2,15,28`);
    assert.equal(changeOf(file)?.hunks, 3);
    for (const i of [0, 1, 2]) await suite.api.undoHunk(file, i);
    assert.equal(fs.readFileSync(file, 'utf8'), original);
    assert.equal(changeOf(file)?.status, 'undone');
  });

  it('gets the text before right whether or not an agent that does not ask wins the race to the file', async () => {
    // Claude in "accept edits" mode: the snippet, then the write at once. Several rounds, so both
    // outcomes of the race (our read first, or the agent's write first) are likely to happen.
    for (let round = 0; round < 5; round++) {
      const file = inWorkspace(`src/log-fast-${round}.txt`);
      const original = numbered(25);
      fs.writeFileSync(file, original);
      await prompt(`edit-lines-fast ${file} 3,20`);
      const change = changeOf(file);
      assert.equal(change?.hunks, 2, JSON.stringify(change));
      await suite.api.undoHunk(file, 0);
      await suite.api.undoHunk(file, 1);
      assert.equal(fs.readFileSync(file, 'utf8'), original, `round ${round}`);
    }
  });

  it('restores CRLF and the BOM byte for byte, hunk by hunk', async () => {
    const file = inWorkspace('src/log-crlf.txt');
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(numbered(20, '\r\n'))]);
    fs.writeFileSync(file, original);
    await prompt(`edit-lines ${file} 3,12`);
    assert.equal(changeOf(file)?.hunks, 2);
    await suite.api.undoHunk(file, 0);
    assert.deepEqual(fs.readFileSync(file).subarray(0, 3), Buffer.from([0xef, 0xbb, 0xbf]));
    assert.equal(fs.readFileSync(file).subarray(3).toString('utf8'), edited(numbered(20, '\r\n'), [12], '\r\n'));
    await suite.api.undoHunk(file, 1);
    assert.deepEqual(fs.readFileSync(file), original);
  });

  it('refuses to rewrite a file that is not UTF-8 text', async () => {
    const file = inWorkspace('src/log-latin1.txt');
    fs.writeFileSync(file, Buffer.from('caf\xe9\nline 2\n', 'latin1'));
    await prompt(`edit-lines ${file} 2`);
    const change = changeOf(file);
    assert.equal(change?.status, 'no-undo');
    assert.match(change?.reason ?? '', /not UTF-8 text/);
    const agentBytes = fs.readFileSync(file);
    const result = await suite.api.undoHunk(file, 0);
    assert.match(result.refused ?? '', /not UTF-8 text/);
    assert.deepEqual(fs.readFileSync(file), agentBytes, 'left as it is');
  });

  it('deletes a file the agent created and recreates one it deleted', async () => {
    const created = inWorkspace('notes/log-created.txt');
    fs.rmSync(created, { force: true });
    await prompt(`write-file ${created}\nfirst line\nsecond line\n`);
    assert.equal(changeOf(created)?.created, true);
    await suite.api.undoHunk(created, 0);
    assert.ok(!fs.existsSync(created), 'the created file is gone');

    const doomed = inWorkspace('src/log-doomed.txt');
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('keep me\r\n')]);
    fs.writeFileSync(doomed, bytes);
    await prompt(`delete-file ${doomed}`);
    assert.ok(!fs.existsSync(doomed));
    assert.equal(changeOf(doomed)?.deleted, true);
    await suite.api.undoHunk(doomed, 0);
    assert.deepEqual(fs.readFileSync(doomed), bytes, 'recreated byte for byte');
  });

  it('leaves a hunk the user rewrote afterwards alone, reports it, and keeps the unsaved text', async () => {
    const file = inWorkspace('src/log-conflict.txt');
    const original = numbered(30);
    fs.writeFileSync(file, original);
    await prompt(`edit-lines ${file} 5,20`);
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await waitFor('the document to show the agent edit', () => doc.getText().includes('line 20 (edited)'));
    await editor.edit((e) => e.replace(doc.lineAt(19).range, 'my own line 20'));
    assert.ok(doc.isDirty);
    assert.equal(changeOf(file)?.conflicts, 1);
    const conflict = await suite.api.undoHunk(file, 1);
    assert.deepEqual([conflict.undone, conflict.conflicts], [[], [1]]);
    const ok = await suite.api.undoHunk(file, 0);
    assert.deepEqual(ok.undone, [0]);
    assert.equal(doc.getText(), original.replace('line 20\n', 'my own line 20\n'));
    assert.ok(doc.isDirty, 'the user\'s text is still unsaved, not lost');
  });

  it('undoes a write through the editor over unsaved text: exact bytes back, and the unsaved text, still unsaved', async () => {
    const file = inWorkspace('src/log-overwrite.txt');
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('line 1\r\nline 2\r\n')]);
    fs.writeFileSync(file, original);
    const doc = await vscode.workspace.openTextDocument(file);
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(doc.lineAt(1).range.end, ' and my unsaved words'));
    const turn = prompt(`fs-write ${file}\nagent line`);
    const question = await waitFor('the overwrite question', () => suite.api.pendingPermissions()[0]);
    assert.ok(suite.api.answerPermission(question.id, 'allow_once'));
    await turn;
    const change = changeOf(file);
    assert.equal(change?.source, 'fs');
    await suite.api.undoHunk(file, 0);
    assert.deepEqual(fs.readFileSync(file), original, 'the exact previous bytes');
    await waitFor('the unsaved text back', () => doc.getText().replace(/\r\n/g, '\n') === 'line 1\nline 2 and my unsaved words\n');
    assert.ok(doc.isDirty, 'and still unsaved');
  });

  it('lists files a command changed with `sed -i` as changed by a command', async () => {
    const open = inWorkspace('src/log-sed-open.txt');
    const closed = inWorkspace('src/log-sed-closed.txt');
    // (Written before the turn, and seen: a write seen late may be listed in a command's grace.)
    await writeSeen([
      [open, 'alpha\nsecond\n'],
      [closed, 'alpha\nsecond\n'],
    ]);
    // An open, saved document: its text before the command is known.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(open));
    const before = suite.api.changes().length;
    await prompt(`shell sed -i 's/alpha/beta/' src/log-sed-open.txt src/log-sed-closed.txt`);
    const [o, c] = await waitFor('both files in the log', () => {
      const both = [open, closed].map((file) => suite.api.changes().slice(before).find((change) => change.path === file));
      return both.every(Boolean) ? both : undefined;
    });
    assert.equal(o?.source, 'watcher');
    assert.equal(c?.source, 'watcher');
    assert.equal(o?.status, 'pending', JSON.stringify(o));
    // The closed file's text before comes from the workspace checkpoint taken before the prompt.
    await waitFor('the closed file undoable from the checkpoint', () => suite.changeOf(closed)?.status === 'pending');
    await suite.api.undoHunk(open, 0);
    assert.equal(fs.readFileSync(open, 'utf8'), 'alpha\nsecond\n');
    await suite.api.undoHunk(closed, 0);
    assert.equal(fs.readFileSync(closed, 'utf8'), 'alpha\nsecond\n');
  });

  it('undoes a command\'s change of one of 50 open documents (CRLF) to the bytes it had, with the others open and saved', async () => {
    // 100–500 KB each, about 15 MB in all: what a turn's first command cost the host was a copy of
    // every open document's text (printed, never asserted).
    const files = Array.from({ length: 50 }, (_, i) => inWorkspace(`src/log-open-${i}.txt`));
    const originals = files.map((_, i) => {
      const lines = Math.round(((100 + ((i * 37) % 400)) * 1024) / 48);
      return Buffer.from(`alpha of document ${i}\r\n${Array.from({ length: lines }, (_, n) => `line ${String(n).padStart(6, '0')} of open document ${String(i).padStart(2, '0')}\r\n`).join('')}`);
    });
    await writeSeen(files.map((file, i) => [file, originals[i]] as const));
    const docs = await Promise.all(files.map((file) => vscode.workspace.openTextDocument(file)));
    assert.ok(docs.every((doc) => !doc.isDirty));
    // The writes above may be taken for the previous test's command (within its grace): listed as
    // created by it. The command's change is the one of a later turn, with its text before known.
    const earlierTurns = turnsOf(files[7]);
    await longestBlock('50 open documents (15 MB): a turn whose command changes one', () => prompt(`shell sed -i 's/alpha/beta/' src/log-open-7.txt`));
    const change = await waitFor('the command\'s change in the log', () => {
      const found = changeOf(files[7]);
      return found?.status === 'pending' && !earlierTurns.has(found.turn) && !found.created ? found : undefined;
    }, 15_000, () => JSON.stringify(suite.api.changes().filter((c) => c.path === files[7])));
    assert.deepEqual([change.source, change.hunks], ['watcher', 1]);
    assert.ok(fs.readFileSync(files[7], 'latin1').startsWith('beta of document 7\r\n'), 'the command changed it');
    await longestBlock('50 open documents (15 MB): a second turn', () => prompt('shell true'));
    await suite.api.undoHunk(files[7], 0);
    const undone = fs.readFileSync(files[7]);
    assert.ok(undone.equals(originals[7]), `Undo puts back its exact bytes (CRLF): ${JSON.stringify(undone.subarray(0, 60).toString('latin1'))}…, ${undone.length} bytes, not ${originals[7].length}; its changes: ${JSON.stringify(suite.api.changes().filter((c) => c.path === files[7]))}`);
    assert.ok(files.every((file, i) => i === 7 || fs.readFileSync(file).equals(originals[i])), 'the other documents are untouched');
  });

  it('lists a file a command wrote into a folder it made, not the folder', async () => {
    const dir = inWorkspace('src/log-made-dir');
    fs.rmSync(dir, { recursive: true, force: true });
    await prompt(`shell mkdir src/log-made-dir && printf 'made\\n' > src/log-made-dir/made.txt`);
    await waitFor('the file in the log', () => changeOf(`${dir}/made.txt`), 15_000, () => JSON.stringify(suite.api.changes().slice(-5)));
    assert.equal(fs.readFileSync(`${dir}/made.txt`, 'utf8'), 'made\n');
    assert.deepEqual(suite.api.changes().filter((c) => c.path === dir), [], 'a folder is no changed file');
  });

  it('keeps no in-memory copy of an open document over 2 MB: a command\'s change of it is listed without undo, saying why', async () => {
    const file = inWorkspace('src/log-sed-large-open.txt');
    const original = Array.from({ length: 130_000 }, (_, i) => `alpha line ${String(i).padStart(6, '0')}\n`).join('');
    assert.ok(original.length > 2 * 1024 * 1024);
    fs.writeFileSync(file, original);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    await prompt(`shell sed -i '1s/alpha/beta/' src/log-sed-large-open.txt`);
    // The write above may be seen by the previous turn's watcher too: the sed's change is the one saying why.
    const change = await waitFor('the command\'s change in the log', () => {
      const found = changeOf(file);
      return found && /larger than/.test(found.reason ?? '') ? found : undefined;
    }, 15_000, () => JSON.stringify(changeOf(file)));
    assert.equal(change.source, 'watcher');
    assert.equal(change.status, 'no-undo');
    assert.match(change.reason ?? '', /^no undo: changed by a command( \(created\))?; larger than 2 MB, its earlier text was not kept$/);
    assert.equal(fs.readFileSync(file, 'utf8'), original.replace('alpha', 'beta'), 'the command\'s change stays');
  });

  it('does not take a document the user saves while an agent\'s command runs for the command\'s change', async () => {
    const saved = inWorkspace('src/log-user-save.txt');
    const written = inWorkspace('src/log-written-after-save.txt');
    // Outside the workspace: the file that ends the command is no change of it.
    const gate = path.join(os.tmpdir(), `acp-log-gate-${process.pid}-${Date.now()}`);
    fs.writeFileSync(saved, 'mine\n');
    fs.rmSync(written, { force: true });
    const doc = await vscode.workspace.openTextDocument(saved);
    await vscode.window.showTextDocument(doc);
    const command = prompt(`shell while [ ! -e ${gate} ]; do sleep 0.05; done`);
    try {
      await waitFor('the command to run', () => suite.api.toolCalls().at(-1)?.title.includes(gate) && suite.api.toolCalls().at(-1)?.status === 'in_progress');
      // While the command runs (its file events are taken for its changes, and for a grace after
      // it ends, as they arrive late), the user edits and saves. A save can take seconds (VS Code
      // 1.139 under load), so the command runs until it is done: no race with the grace.
      const edit = new vscode.WorkspaceEdit();
      edit.insert(doc.uri, new vscode.Position(1, 0), 'more of mine\n');
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await doc.save());
    } finally {
      fs.writeFileSync(gate, '');
    }
    await command;
    fs.rmSync(gate, { force: true });
    // A file written outside VS Code right after is still taken for the command's: once it is
    // listed, the watcher has also seen the save, which came first.
    fs.writeFileSync(written, 'by whom?\n');
    const { turn } = await waitFor('the write outside VS Code in the log', () => changeOf(written));
    // (This test's own first write of the file may be seen by a turn's grace too: it is listed without undo.)
    const listed = suite.api.changes().filter((c) => c.path === saved && c.turn === turn);
    assert.ok(listed.every((c) => c.status !== 'pending'), `the user's own save is not the agent's change (its Undo would drop the user's edit): ${JSON.stringify(listed)}`);
    assert.equal(fs.readFileSync(saved, 'utf8'), 'mine\nmore of mine\n');
  });

  it('undoes a command\'s change of an open file to the text it was last saved with, not an earlier turn\'s', async () => {
    const file = inWorkspace('src/log-sed-saved.txt');
    fs.writeFileSync(file, 'alpha\nsecond\n');
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    await prompt('shell true');
    // The user edits and saves it between turns: the next turn's text before is the saved one.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(0, 0, 0, 5), 'gamma');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    assert.equal(fs.readFileSync(file, 'utf8'), 'gamma\nsecond\n');
    const earlierTurns = turnsOf(file);
    await prompt(`shell sed -i 's/gamma/delta/' src/log-sed-saved.txt`);
    await waitFor('the command\'s change in the log', () => {
      const found = changeOf(file);
      return found?.status === 'pending' && !earlierTurns.has(found.turn);
    }, 15_000, () => JSON.stringify(suite.api.changes().filter((c) => c.path === file)));
    await suite.api.undoHunk(file, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), 'gamma\nsecond\n');
  });

  it('reviews a 2 MB file of 170,000 lines the agent rewrote line by line as one hunk, and Undo puts back its exact bytes', async () => {
    // Just under the log's 2 MB bound for texts (larger files are listed without undo), in lines
    // short enough that an undo splicing them in as arguments overflowed the stack.
    const file = inWorkspace('src/log-rewrite-2mb.txt');
    const lineCount = 170_000;
    const original = Array.from({ length: lineCount }, (_, i) => `line ${String(i).padStart(6, '0')}\n`).join('');
    fs.writeFileSync(file, original);
    await prompt(`fs-rewrite ${file} line LINE`);
    const change = changeOf(file);
    assert.ok(change, JSON.stringify(suite.api.changes().map((c) => c.path)));
    assert.deepEqual([change.source, change.status, change.reason, change.hunks, change.added, change.removed], ['fs', 'pending', undefined, 1, lineCount, lineCount]);
    assert.ok(fs.readFileSync(file, 'utf8').startsWith('LINE 000000\n'));
    // Its one hunk is the whole file: Undo on it is Undo All, through the action log's own undo.
    assert.deepEqual((await suite.api.undoHunk(file, 0)).undone, [0]);
    assert.ok(fs.readFileSync(file).equals(Buffer.from(original)), 'the file after Undo differs from the file before the agent');
    assert.equal(changeOf(file)?.status, 'undone');
  });

  it('restores to before a prompt across two turns, as one step that can be undone', async () => {
    const a = inWorkspace('src/log-checkpoint.txt');
    const b = inWorkspace('src/log-checkpoint-new.txt');
    const original = numbered(20);
    fs.writeFileSync(a, original);
    fs.rmSync(b, { force: true });
    await prompt(`edit-lines ${a} 2`);
    const firstTurn = changeOf(a)?.turn;
    await prompt(`edit-lines ${a} 15`);
    const secondTurn = changeOf(a)?.turn;
    await prompt(`write-file ${b}\nnew file\n`);
    assert.ok(firstTurn !== undefined && secondTurn !== undefined && secondTurn > firstTurn);

    const restored = await suite.api.restoreCheckpoint(secondTurn);
    assert.deepEqual(restored.files.sort(), [a, b].sort());
    assert.equal(fs.readFileSync(a, 'utf8'), edited(original, [2]));
    assert.ok(!fs.existsSync(b));

    await suite.api.undoRestore();
    assert.equal(fs.readFileSync(a, 'utf8'), edited(original, [2, 15]));
    assert.equal(fs.readFileSync(b, 'utf8'), 'new file\n');

    await suite.api.restoreCheckpoint(firstTurn);
    assert.equal(fs.readFileSync(a, 'utf8'), original);
    assert.ok(!fs.existsSync(b));
  });

  it('restores to before a prompt per hunk in a file you saved since: the agent\'s hunks back, yours kept, a clash listed', async () => {
    const file = inWorkspace('src/log-restore-merge.txt');
    const original = numbered(20);
    fs.writeFileSync(file, original);
    await prompt(`edit-lines ${file} 2,10`);
    const turn = changeOf(file)?.turn;
    assert.ok(turn !== undefined);
    assert.equal(fs.readFileSync(file, 'utf8'), edited(original, [2, 10]));
    // Your own edits after the turn, saved from the editor: one beside the agent's hunks, one over its line 10.
    const doc = await vscode.workspace.openTextDocument(file);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, doc.lineAt(9).range, 'line 10 as you want it');
    edit.replace(doc.uri, doc.lineAt(15).range, 'line 16 yours');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await doc.save());
    const yours = original.replace('line 10\n', 'line 10 as you want it\n').replace('line 16\n', 'line 16 yours\n');

    const restored = await suite.api.restoreCheckpoint(turn);
    assert.equal(fs.readFileSync(file, 'utf8'), yours, 'the agent\'s line 2 is back, your lines 10 and 16 stay');
    assert.deepEqual(restored.conflicts.filter((c) => c.path === file), [{ path: file, hunks: [1] }], JSON.stringify(restored));
    assert.ok(restored.files.includes(file), JSON.stringify(restored.files));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('keeps the log in workspace storage: a session loaded again can still be restored', async () => {
    const file = inWorkspace('src/log-reload.txt');
    const original = numbered(12);
    fs.writeFileSync(file, original);
    await prompt(`edit-lines ${file} 4`);
    await prompt(`edit-lines ${file} 9`);
    const sessionId = suite.api.activeSessionId;
    assert.ok(sessionId);
    const turns = suite.api.changes().filter((c) => c.path === file).map((c) => c.turn);
    // Clearing drops the session and its log from memory; loading it reads the log back from storage.
    await suite.api.stopAgent();
    await vscode.commands.executeCommand('acpNative.clearToolCalls');
    assert.deepEqual(suite.api.changes(), []);
    await within('load', suite.api.loadSession(sessionId));
    assert.deepEqual(suite.api.changes().filter((c) => c.path === file).map((c) => c.turn), turns);
    await suite.api.restoreCheckpoint(turns[0]);
    assert.equal(fs.readFileSync(file, 'utf8'), original);
  });
});
