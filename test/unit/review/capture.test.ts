import * as assert from 'node:assert/strict';
import { captureWorld, SESSION, text } from './captureWorld';

const F = '/w/f.txt';
const diff = (oldText: string | null, newText: string, path = F) => ({ type: 'diff' as const, path, oldText, newText });
const claudeResponse = (filePath: string, originalFile: string | null) => ({ claudeCode: { toolResponse: { filePath, originalFile, structuredPatch: [] }, toolName: 'Edit' } });

describe('action log capture: what a tool call changed', () => {
  it('reads a file the moment a call first names it, and takes what the agent left when the call is done', () => {
    const w = captureWorld();
    w.files.write(F, 'before\n');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    // The agent writes; its next updates name the file again, which is not read again.
    w.files.write(F, 'after\n');
    w.update({ toolCallId: 'c1', content: [diff('before', 'after')] });
    assert.equal(text(w.only().before), 'before\n');
    assert.equal(w.only().after, undefined, 'still open while the call runs');
    w.update({ toolCallId: 'c1', status: 'completed' });
    const change = w.only();
    assert.equal(text(change.after), 'after\n');
    assert.deepEqual(change.hunkStates, ['pending']);
    assert.equal(change.source, 'tool');
    assert.deepEqual(change.toolCallIds, ['c1']);
    assert.deepEqual(w.told, ['shown', 'soon'], 'shown when named, saved soon once settled');
  });

  it("keeps a file's first before in a turn: a later call of it adds itself to the change", () => {
    const w = captureWorld();
    w.files.write(F, 'one\n');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.write(F, 'two\n');
    w.update({ toolCallId: 'c1', status: 'completed' });
    w.call({ toolCallId: 'c2', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.write(F, 'three\n');
    w.update({ toolCallId: 'c2', status: 'completed' });
    assert.equal(text(w.only().before), 'one\n');
    assert.equal(text(w.only().after), 'three\n');
    assert.deepEqual(w.only().toolCallIds, ['c1', 'c2']);
  });

  it('resolves each path a turn names once, however often its calls name it', () => {
    const w = captureWorld();
    w.files.links.set('/link/f.txt', F);
    w.files.write(F, 'x\n');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: '/link/f.txt' }] });
    for (let i = 0; i < 5; i++) w.update({ toolCallId: 'c1', locations: [{ path: '/link/f.txt', line: i }] });
    w.call({ toolCallId: 'c2', kind: 'edit', status: 'in_progress', locations: [{ path: '/link/f.txt' }] });
    assert.deepEqual(w.files.realPathAsked, ['/link/f.txt']);
    assert.equal(w.only().path, F, 'the change is the real file');
  });

  it('takes the text before from the report of a call first named once done: its applied hunks reverted', () => {
    const w = captureWorld();
    w.files.write(F, 'hello ACP\nbye\n');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'completed', content: [diff('hello world', 'hello ACP')] });
    assert.equal(text(w.only().before), 'hello world\nbye\n');
    assert.equal(w.only().beforeHow, 'reported after writing');
    assert.equal(text(w.only().after), 'hello ACP\nbye\n');
  });

  it("rebuilds in the file's own line endings and BOM", () => {
    const w = captureWorld();
    w.files.write(F, 'hello ACP\r\nbye\r\n', true);
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'completed', content: [diff('hello world', 'hello ACP')] });
    assert.equal(text(w.only().before), '\uFEFFhello world\r\nbye\r\n');
  });

  it('lists nothing for a call first named once done that reports no change it can back: failed, or no change at all', () => {
    const w = captureWorld();
    w.files.write(F, 'whole\n');
    w.call({ toolCallId: 'failed', kind: 'edit', status: 'failed', content: [diff(null, 'whole\n')] });
    w.call({ toolCallId: 'same', kind: 'edit', status: 'completed', content: [diff('whole\n', 'whole\n', '/w/g.txt')] });
    assert.deepEqual(w.changes(), []);
    // Completed, with a change it cannot back: listed, without undo.
    w.call({ toolCallId: 'whole', kind: 'edit', status: 'completed', content: [diff(null, 'whole\n')] });
    assert.equal(w.only().before.kind, 'unknown');
    assert.match((w.only().before as { reason: string }).reason, /wrote it before it could be read, and the agent wrote it whole/);
  });

  it("takes the agent's write that beat our read for what it is: the text before rebuilt from its report", () => {
    const w = captureWorld();
    // Already written when the call first names it: our read is the text after.
    w.files.write(F, 'a\nnew\n');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', content: [diff('old', 'new')] });
    w.update({ toolCallId: 'c1', status: 'completed' });
    assert.equal(text(w.only().before), 'a\nold\n');
    assert.equal(w.only().beforeHow, "rebuilt from the agent's report");
  });

  it('says the text before is not known when a write beat our read and the report cannot rebuild it, and lists nothing for a failed call', () => {
    const w = captureWorld();
    w.files.write(F, 'all new\n');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', content: [diff(null, 'all new\n')] });
    w.update({ toolCallId: 'c1', status: 'completed' });
    assert.equal(w.only().before.kind, 'unknown');
    assert.equal(w.views.view(w.only()).status, 'no-undo');

    const failed = captureWorld();
    failed.files.write(F, 'all new\n');
    failed.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', content: [diff(null, 'all new\n')] });
    failed.update({ toolCallId: 'c1', status: 'failed' });
    assert.deepEqual(failed.changes(), [], 'the same before and after: nothing changed');
  });

  it("takes an empty read for a torn one when the agent's hunks say the file was not empty", () => {
    const w = captureWorld();
    // Read mid-write: the agent's write truncated the file first.
    w.files.write(F, '');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.write(F, 'x ACP\n');
    w.update({ toolCallId: 'c1', status: 'completed', content: [diff('x world', 'x ACP')] });
    assert.equal(text(w.only().before), 'x world\n');
    assert.equal(w.only().beforeHow, "rebuilt from the agent's report");
  });

  it("keeps an empty read when the report does not say otherwise (the file was empty)", () => {
    const w = captureWorld();
    w.files.write(F, '');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.write(F, 'first\n');
    w.update({ toolCallId: 'c1', status: 'completed', content: [diff(null, 'first\n')] });
    assert.equal(text(w.only().before), '');
    assert.equal(w.only().beforeHow, undefined);
  });

  it("prefers the agent's own copy of the original, sent alone in a message, to our read, and drops a large copy it replaces", () => {
    const w = captureWorld();
    w.files.write(F, 'torn');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.write(F, 'the new text\n');
    // Claude's adapter: the tool response comes on an update that changes nothing else of the call.
    w.update({ toolCallId: 'c1', _meta: claudeResponse(F, 'the whole original\n') });
    w.update({ toolCallId: 'c1', status: 'completed', _meta: { claudeCode: { toolName: 'Edit' } } });
    assert.equal(text(w.only().before), 'the whole original\n');
    assert.equal(w.only().beforeHow, "the agent's copy of the original");

    const big = captureWorld();
    big.files.files.set(F, { large: 3 * 1024 * 1024 });
    big.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    assert.deepEqual(big.large.copied, [F]);
    big.files.write(F, 'small now\n');
    big.update({ toolCallId: 'c1', status: 'completed', _meta: claudeResponse(F, 'the original\n') });
    assert.deepEqual(big.large.dropped, [`copy of ${F}`]);
    assert.equal(text(big.only().before), 'the original\n');
  });

  it("takes the agent's report of a new file for a file that was not there, and ignores a report of another file", () => {
    const w = captureWorld();
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.write(F, 'made\n');
    w.update({ toolCallId: 'c1', status: 'completed', _meta: claudeResponse(F, null) });
    assert.equal(w.only().before.kind, 'absent');

    const other = captureWorld();
    other.files.write(F, 'read in time\n');
    other.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    other.files.write(F, 'written\n');
    other.update({ toolCallId: 'c1', status: 'completed', _meta: claudeResponse('/w/other.txt', 'not this one\n') });
    assert.equal(text(other.only().before), 'read in time\n');
  });

  it('lists a file deleted before we could read it without an undo it cannot back', () => {
    const w = captureWorld();
    w.call({ toolCallId: 'c1', kind: 'delete', status: 'in_progress', locations: [{ path: F }] });
    w.update({ toolCallId: 'c1', status: 'completed' });
    assert.deepEqual(w.only().before, { kind: 'unknown', reason: 'the agent deleted it before it could be read' });
  });

  it('starts the copy of a large file when first named and the hash of what the agent left, never a rebuild from a report', () => {
    const w = captureWorld();
    w.files.files.set(F, { large: 5 * 1024 * 1024 });
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.files.set(F, { large: 6 * 1024 * 1024 });
    w.update({ toolCallId: 'c1', status: 'completed' });
    assert.deepEqual(w.large.copied, [F]);
    assert.deepEqual(w.large.hashed, [F]);
    assert.equal(w.only().before.kind, 'large');

    const late = captureWorld();
    late.files.files.set(F, { large: 5 * 1024 * 1024 });
    late.call({ toolCallId: 'c1', kind: 'edit', status: 'completed', content: [diff('a', 'b')] });
    assert.deepEqual(late.only().before, { kind: 'unknown', reason: 'the agent wrote it before it could be copied (larger than 2 MB)' });
    assert.deepEqual(late.large.copied, []);
  });

  it('names no file of a read, only edit/delete/move locations and diffs', () => {
    const w = captureWorld();
    w.files.write(F, 'x\n');
    w.call({ toolCallId: 'r', kind: 'read', status: 'completed', locations: [{ path: F }] });
    w.call({ toolCallId: 'e', kind: 'execute', status: 'completed', locations: [{ path: F }] });
    assert.deepEqual(w.changes(), []);
    assert.deepEqual(w.told, [], 'a call that named no file leaves nothing to save or show');
  });

  it('hears nothing outside a turn', () => {
    const w = captureWorld();
    w.capture.endTurn(SESSION);
    w.files.write(F, 'x\n');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    assert.deepEqual(w.changes(), []);
  });

  it('settles what is still open when the turn ends, and saves at once', () => {
    const w = captureWorld();
    w.files.write(F, 'a\n');
    w.call({ toolCallId: 'c1', kind: 'edit', status: 'in_progress', locations: [{ path: F }] });
    w.files.write(F, 'b\n');
    w.capture.endTurn(SESSION);
    assert.equal(text(w.only().after), 'b\n');
    assert.equal(w.told.at(-1), 'now');
    assert.equal(w.capture.isBusy(SESSION), false);
  });
});

describe('action log capture: fs/write_text_file', () => {
  it('records the file and the unsaved text of its document before the write, and what was written after', () => {
    const w = captureWorld();
    w.files.write(F, 'on disk\n');
    w.files.unsaved.set(F, 'typed, unsaved\n');
    const change = w.capture.beforeFsWrite(SESSION, F);
    assert.equal(change?.source, 'fs');
    w.files.write(F, 'written\n');
    w.capture.afterFsWrite(SESSION, F, true);
    assert.equal(text(w.only().before), 'on disk\n');
    assert.equal(w.only().beforeUnsaved, 'typed, unsaved\n');
    assert.equal(text(w.only().after), 'written\n');
  });

  it('drops a refused write of something that is no file it can read, and keeps a refused write of a file', () => {
    const w = captureWorld();
    w.files.files.set('/w/dir', 'folder');
    w.capture.beforeFsWrite(SESSION, '/w/dir');
    w.capture.afterFsWrite(SESSION, '/w/dir', false);
    assert.deepEqual(w.changes(), []);
    w.files.write(F, 'same\n');
    w.capture.beforeFsWrite(SESSION, F);
    w.capture.afterFsWrite(SESSION, F, false);
    assert.deepEqual(w.changes(), [], 'nothing changed: not listed, though recorded');
    assert.ok(w.log.inTurn(SESSION, F));
  });

  it('starts a turn for a write outside one (an agent that writes after its prompt answered)', () => {
    const w = captureWorld();
    w.capture.endTurn(SESSION);
    w.capture.beforeFsWrite(SESSION, F);
    assert.equal(w.capture.isBusy(SESSION), true);
  });

  it("replaces a command's change whose text before is not known by the agent's own report of the file", () => {
    const w = captureWorld();
    w.call({ toolCallId: 'sh', kind: 'execute', status: 'in_progress' });
    w.files.write(F, 'by the command\n');
    w.capture.diskChanged(F, 'changed');
    assert.equal(w.only().source, 'watcher');
    w.capture.beforeFsWrite(SESSION, F);
    assert.equal(w.only().source, 'fs');
    assert.equal(text(w.only().before), 'by the command\n');
  });
});
