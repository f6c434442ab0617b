import * as assert from 'node:assert/strict';
import { COMMAND_GRACE_MS, OWN_WRITE_MS } from '../../../src/extension/review/model/captureDeps';
import { MAX_FILES_IN_NEW_FOLDER } from '../../../src/extension/review/model/commandWatch';
import { captureWorld, FakeDocument, SESSION, text } from './captureWorld';
import { ToolCallStore } from '../../../src/extension/session/model/toolCalls';

const F = '/w/f.txt';

/** A capture with a command (an `execute` call) running. */
function commandRunning() {
  const w = captureWorld();
  w.call({ toolCallId: 'sh', kind: 'execute', status: 'in_progress' });
  return w;
}

/** A capture whose command finished and whose turn ended: a file changing is still the command's, for its grace. */
function commandFinishedInGrace() {
  const w = commandRunning();
  w.update({ toolCallId: 'sh', status: 'completed' });
  w.capture.endTurn(SESSION);
  return w;
}

describe('action log capture: what a command changed', () => {
  it("lists a file a command changed, its text before the open document's (the file's BOM kept)", () => {
    const w = captureWorld();
    w.files.saved.set(F, 'old\n');
    w.call({ toolCallId: 'sh', kind: 'execute', status: 'in_progress' });
    w.files.write(F, 'new\n', true);
    w.capture.diskChanged(F, 'changed');
    const change = w.only();
    assert.equal(change.source, 'watcher');
    assert.equal(text(change.before), '\uFEFFold\n');
    assert.equal(text(change.after), '\uFEFFnew\n');
    assert.deepEqual(w.told.at(-1), 'soon');
    // A later event of the same file updates what the command left.
    w.files.write(F, 'newer\n', true);
    w.capture.diskChanged(F, 'changed');
    assert.equal(text(w.only().after), '\uFEFFnewer\n');
    assert.equal(text(w.only().before), '\uFEFFold\n');
  });

  it('says why the text before is not known: no open document, or one over the size bound', () => {
    const w = commandRunning();
    w.files.write(F, 'x\n');
    w.capture.diskChanged(F, 'created');
    assert.deepEqual(w.only().before, { kind: 'unknown', reason: 'changed by a command (created); its earlier text was not captured' });

    const big = captureWorld();
    big.files.saved.set(F, null);
    big.call({ toolCallId: 'sh', kind: 'execute', status: 'in_progress' });
    big.files.write(F, 'x\n');
    big.capture.diskChanged(F, 'changed');
    assert.deepEqual(big.only().before, { kind: 'unknown', reason: 'changed by a command; larger than 2 MB, its earlier text was not kept' });
  });

  it('takes the open documents as the turn begins, and those opened since at its first call that may change files', () => {
    const w = captureWorld();
    w.files.saved.set(F, 'opened during the turn\n');
    w.call({ toolCallId: 'sh', kind: 'execute', status: 'in_progress' });
    w.files.saved.set(F, 'reloaded later\n');
    w.call({ toolCallId: 'sh2', kind: 'execute', status: 'in_progress' });
    w.update({ toolCallId: 'sh', status: 'in_progress', title: 'again' });
    assert.equal(w.files.savedDocumentsTaken, 2, 'at the begin and at the first call');
    w.files.write(F, 'changed\n');
    w.capture.diskChanged(F, 'changed');
    assert.equal(text(w.only().before), 'opened during the turn\n');
    w.capture.endTurn(SESSION);
    w.capture.beginTurn(SESSION, 1);
    w.call({ toolCallId: 'sh3', kind: 'execute', status: 'in_progress' });
    assert.equal(w.files.savedDocumentsTaken, 4, 'a new turn takes them again');
  });

  it('keeps the text a document had as the turn began when VS Code reloaded it before the command\'s call arrived', () => {
    const w = captureWorld();
    w.files.saved.set(F, 'before the turn\n');
    w.capture.endTurn(SESSION);
    w.capture.beginTurn(SESSION, 1);
    // The agent ran `sed -i` as it sent the call: the document was reloaded before the call came.
    w.files.write(F, 'what sed left\n');
    w.files.saved.set(F, 'what sed left\n');
    w.call({ toolCallId: 'sh', kind: 'execute', status: 'in_progress' });
    w.capture.diskChanged(F, 'changed');
    assert.equal(text(w.only().before), 'before the turn\n');
    assert.equal(text(w.only().after), 'what sed left\n');
  });

  it('takes what the user saved during the turn as the text before of a later command\'s change', () => {
    const w = captureWorld();
    w.files.saved.set(F, 'at the begin\n');
    w.capture.endTurn(SESSION);
    w.capture.beginTurn(SESSION, 1);
    w.files.write(F, 'saved by the user\n');
    w.capture.userSaved(F, new FakeDocument(2, 'saved by the user\n'));
    w.clock.now += OWN_WRITE_MS + 1;
    w.call({ toolCallId: 'sh', kind: 'execute', status: 'in_progress' });
    w.files.write(F, 'the command\'s\n');
    w.capture.diskChanged(F, 'changed');
    assert.equal(text(w.only().before), 'saved by the user\n', 'Undo keeps the user\'s save');
  });

  it('gives a dead agent its late file events for the grace, and nothing after it', () => {
    const w = commandRunning();
    // The agent crashed mid-command: the turn ends, the call never reports its end.
    w.capture.endTurn(SESSION);
    w.capture.agentGone(SESSION);
    w.files.write(F, 'written just before the crash\n');
    w.capture.diskChanged(F, 'changed');
    assert.deepEqual(w.changes().map((c) => c.path), [F], 'a late event within the grace is the command\'s');
    w.clock.now += COMMAND_GRACE_MS + 1;
    w.files.write('/w/later.txt', 'your own git checkout, an hour on\n');
    w.capture.diskChanged('/w/later.txt', 'changed');
    assert.deepEqual(w.changes().map((c) => c.path), [F], 'nothing after the grace is the dead agent\'s');
  });

  it("gives a running turn's command its change, not an earlier session whose cancelled turn left a call running", () => {
    const w = captureWorld();
    // s1's turn asked something and was cancelled: its call never finished.
    w.call({ toolCallId: 'ask', kind: 'edit', status: 'in_progress' });
    w.capture.endTurn(SESSION);
    w.clock.now += COMMAND_GRACE_MS * 10;
    const other = new ToolCallStore();
    w.capture.beginTurn('s2', 0);
    w.capture.callApplied('s2', other.applyToolCall({ toolCallId: 'sh', title: 'sed', kind: 'execute', status: 'in_progress' }));
    w.files.write(F, 'sed did this\n');
    w.capture.diskChanged(F, 'changed');
    assert.equal(w.log.changes('s2').length, 1, "the running turn's");
    assert.equal(w.changes().length, 0, 'not the ended one');
  });

  it('listens while a command runs and for its grace after it finished, even past the end of its turn', () => {
    const w = commandRunning();
    w.update({ toolCallId: 'sh', status: 'completed' });
    w.capture.endTurn(SESSION);
    w.clock.now += COMMAND_GRACE_MS;
    w.files.write(F, 'late event\n');
    w.capture.diskChanged(F, 'changed');
    assert.equal(w.changes().length, 1, 'within the grace');
    w.clock.now += 1;
    w.files.write('/w/g.txt', 'too late\n');
    w.capture.diskChanged('/w/g.txt', 'changed');
    assert.equal(w.changes().length, 1, 'after the grace: a build, a checkout, not the agent');
  });

  it("keeps listening until the turn ends once a call may have changed files, then for the grace from the turn's end", () => {
    const w = captureWorld();
    // No kind yet: it may change files; a later update says it is a quiet one.
    w.call({ toolCallId: 'c', status: 'in_progress' });
    w.update({ toolCallId: 'c', kind: 'search' });
    w.clock.now += 60_000;
    w.files.write(F, 'x\n');
    w.capture.diskChanged(F, 'changed');
    assert.equal(w.changes().length, 1, 'the turn still runs');
    w.capture.endTurn(SESSION);
    w.clock.now += COMMAND_GRACE_MS;
    w.files.write('/w/g.txt', 'x\n');
    w.capture.diskChanged('/w/g.txt', 'changed');
    assert.equal(w.changes().length, 2, 'within the grace from the end');
    w.clock.now += 1;
    w.files.write('/w/h.txt', 'x\n');
    w.capture.diskChanged('/w/h.txt', 'changed');
    assert.equal(w.changes().length, 2);
  });

  it("does not listen during quiet calls (read, search…), and they do not stretch a finished command's grace", () => {
    const w = captureWorld();
    w.call({ toolCallId: 'r', kind: 'read', status: 'in_progress' });
    w.files.write(F, 'x\n');
    w.capture.diskChanged(F, 'changed');
    assert.deepEqual(w.changes(), []);
    w.call({ toolCallId: 'sh', kind: 'execute', status: 'completed' });
    w.clock.now += COMMAND_GRACE_MS - 500;
    w.call({ toolCallId: 'r2', kind: 'search', status: 'in_progress' });
    w.clock.now += 501;
    w.capture.diskChanged(F, 'changed');
    assert.deepEqual(w.changes(), []);
  });

  it('ignores our own writes for a while, then takes the file for the agent again', () => {
    const w = commandRunning();
    w.capture.markOwn(F);
    w.clock.now += OWN_WRITE_MS;
    w.files.write(F, 'ours\n');
    w.capture.diskChanged(F, 'changed');
    assert.deepEqual(w.changes(), []);
    w.clock.now += 1;
    w.capture.diskChanged(F, 'changed');
    assert.equal(w.changes().length, 1);
  });

  it("does not take a document the user saved for the command's change, but a command's change of it just after", () => {
    const w = commandRunning();
    const doc = new FakeDocument(3, 'saved by the user\n');
    w.capture.userSaved(F, doc);
    w.files.write(F, 'saved by the user\n');
    w.capture.diskChanged(F, 'changed');
    assert.deepEqual(w.changes(), []);
    // The command rewrites it: the file is no longer what the user saved.
    w.files.write(F, 'by the command\n');
    w.capture.diskChanged(F, 'changed');
    assert.equal(w.changes().length, 1);

    // After the turn, in the command's grace: the save is not the text before of a change to come.
    const reloaded = commandFinishedInGrace();
    const again = new FakeDocument(3, 'text\n');
    reloaded.capture.userSaved(F, again);
    reloaded.files.write(F, 'text\n');
    // VS Code reloaded the document after a command's change: a new version, not the user's save.
    again.version = 4;
    reloaded.capture.diskChanged(F, 'changed');
    assert.equal(reloaded.changes().length, 1);
  });

  it('forgets a save once its document is closed or its time is up', () => {
    const w = commandFinishedInGrace();
    const doc = new FakeDocument(1, 'same\n');
    w.capture.userSaved(F, doc);
    w.files.write(F, 'same\n');
    doc.isClosed = true;
    w.capture.diskChanged(F, 'changed');
    assert.equal(w.changes().length, 1);

    // A turn that ended with its command never reported done listens on.
    const late = commandRunning();
    late.capture.endTurn(SESSION);
    late.capture.userSaved(F, new FakeDocument(1, 'same\n'));
    late.files.write(F, 'same\n');
    late.clock.now += OWN_WRITE_MS + 1;
    late.capture.diskChanged(F, 'changed');
    assert.equal(late.changes().length, 1);
  });

  it("leaves a file a tool call named to that call's own report", () => {
    const w = commandRunning();
    w.files.write(F, 'before\n');
    w.call({ toolCallId: 'e', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.write(F, 'after\n');
    w.capture.diskChanged(F, 'changed');
    assert.equal(w.only().source, 'tool');
    assert.equal(w.only().after, undefined);
    // Named by a call that left nothing to list (it failed): its file's event is still the call's.
    const failed = captureWorld();
    failed.files.write(F, 'whole\n');
    failed.call({ toolCallId: 'e', kind: 'edit', status: 'failed', content: [{ type: 'diff', path: F, oldText: null, newText: 'whole\n' }] });
    failed.capture.diskChanged(F, 'changed');
    assert.deepEqual(failed.changes(), []);
  });

  it('drops a temporary file that came and went (`sed -i`), and lists a file it deleted when its text before is known', () => {
    const w = commandRunning();
    w.files.write('/w/sedXYZ', 'tmp\n');
    w.capture.diskChanged('/w/sedXYZ', 'created');
    assert.equal(w.changes().length, 1);
    w.files.files.delete('/w/sedXYZ');
    w.capture.diskChanged('/w/sedXYZ', 'deleted');
    assert.deepEqual(w.changes(), []);

    const deleted = captureWorld();
    deleted.files.saved.set(F, 'was here\n');
    deleted.call({ toolCallId: 'sh', kind: 'execute', status: 'in_progress' });
    deleted.capture.diskChanged(F, 'deleted');
    assert.equal(text(deleted.only().before), 'was here\n');
    assert.equal(deleted.only().after?.kind, 'absent');
  });

  it('lists the files a command wrote into a folder it made, not the folder: at most 100, never in .git or node_modules', () => {
    const w = commandRunning();
    w.files.files.set('/w/out', 'folder');
    w.files.write('/w/out/a.txt', 'a\n');
    w.files.files.set('/w/out/sub', 'folder');
    w.files.write('/w/out/sub/b.txt', 'b\n');
    w.files.files.set('/w/out/node_modules', 'folder');
    w.files.write('/w/out/node_modules/dep.js', 'x\n');
    w.files.files.set('/w/out/.git', 'folder');
    w.files.write('/w/out/.git/HEAD', 'x\n');
    w.capture.diskChanged('/w/out', 'created');
    assert.deepEqual(w.changes().map((c) => c.path).sort(), ['/w/out/a.txt', '/w/out/sub/b.txt']);
    // A folder's own change event (a file added in it) lists nothing more.
    w.capture.diskChanged('/w/out', 'changed');
    assert.equal(w.changes().length, 2);

    const build = commandRunning();
    build.files.files.set('/w/dist', 'folder');
    for (let i = 0; i < MAX_FILES_IN_NEW_FOLDER + 50; i++) build.files.write(`/w/dist/f${i}.js`, `${i}\n`);
    build.capture.diskChanged('/w/dist', 'created');
    assert.equal(build.changes().length, MAX_FILES_IN_NEW_FOLDER);
  });

  it("ignores what changes in .git (a command's commit is not a file change to review)", () => {
    const w = commandRunning();
    w.files.write('/w/.git/index', 'x');
    w.capture.diskChanged('/w/.git/index', 'changed');
    assert.deepEqual(w.changes(), []);
  });
});
