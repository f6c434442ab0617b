import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { encodeText } from '../../../src/extension/review/model/actionHunks';
import { ActionLog, isEffective, sameSnapshot, viewOf, type LargeSnapshot, type Snapshot } from '../../../src/extension/review/model/actionLog';
import { planUndo, planWholeUndo, type FileFingerprint } from '../../../src/extension/review/model/undoPlan';

const MB = 1024 * 1024;
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const copy = (blob: string, size = 5 * MB): LargeSnapshot => ({ kind: 'large', size, blob, sha256: sha(blob) });
const left = (text: string, size = 5 * MB): LargeSnapshot => ({ kind: 'large', size, sha256: sha(text) });
const file = (text: string, size = 5 * MB, dirty = false): FileFingerprint => ({ kind: 'file', size, sha256: sha(text), dirty });

/** A change of a large file, settled with what the agent left. */
function largeChange(before: Snapshot, after: Snapshot) {
  const log = new ActionLog();
  log.beginTurn('s', 0);
  const change = log.record('s', '/w/big.log', 'tool', before, 'call1');
  const view = log.setAfter(change, after);
  return { log, change, view };
}

describe('action log: files larger than 2 MB, undone as a whole file', () => {
  it('lists a rewrite of a large file as one whole-file change with undo, never as hunks', () => {
    const { change, view } = largeChange(copy('blob-before'), left('agent'));
    assert.equal(view.wholeFile, true);
    assert.equal(view.status, 'pending');
    assert.deepEqual(view.hunks, []);
    assert.deepEqual(change.hunkStates, ['pending'], 'one state for the whole file');
    change.hunkStates[0] = 'kept';
    assert.equal(viewOf(change).status, 'kept');
  });

  it('treats a small file that grew past 2 MB, a created and a deleted large file as whole-file changes', () => {
    const grew = largeChange({ kind: 'bytes', bytes: encodeText('small\n', false) }, left('agent'));
    assert.equal(grew.view.wholeFile, true);
    const created = largeChange({ kind: 'absent' }, left('agent'));
    assert.deepEqual([created.view.wholeFile, created.view.created], [true, true]);
    const deleted = largeChange(copy('blob-before'), { kind: 'absent' });
    assert.deepEqual([deleted.view.wholeFile, deleted.view.deleted], [true, true]);
  });

  it('says why there is no undo when the copy before was torn or a side is not known', () => {
    const torn = largeChange({ kind: 'large', size: 5 * MB, unreliable: 'it changed while it was being copied' }, left('agent'));
    assert.equal(torn.view.status, 'no-undo');
    assert.equal(torn.view.reason, 'no undo: it changed while it was being copied');
    const tooLarge = largeChange({ kind: 'unknown', reason: 'larger than 64 MB' }, left('agent'));
    assert.deepEqual([tooLarge.view.wholeFile, tooLarge.view.status, tooLarge.view.reason], [false, 'no-undo', 'no undo: larger than 64 MB']);
  });

  it('keeps the status of a kept change whose copy was dropped on purpose', () => {
    const { change } = largeChange(copy('blob-before'), left('agent'));
    change.hunkStates = ['kept'];
    delete (change.before as LargeSnapshot).blob;
    assert.equal(viewOf(change).status, 'kept');
  });

  it('takes large files for the same only when both hashes are known and equal', () => {
    assert.equal(sameSnapshot(left('x'), left('x')), true);
    assert.equal(sameSnapshot(left('x'), left('y')), false);
    assert.equal(sameSnapshot({ kind: 'large', size: 5 }, { kind: 'large', size: 5 }), false);
    // A copy whose hash is not known yet counts; once it proves the same as the file after, it does not.
    const pending = largeChange({ kind: 'large', size: 5 * MB, blob: 'b' }, left('same'));
    assert.equal(isEffective(pending.change), true);
    (pending.change.before as LargeSnapshot).sha256 = sha('same');
    assert.equal(isEffective(pending.change), false);
  });

  it('plans a byte copy of the copy before when the file is exactly what the agent left', () => {
    const { change, view } = largeChange(copy('blob-before'), left('agent'));
    const plan = planWholeUndo(change, view, file('agent'));
    assert.deepEqual(plan, { action: { type: 'put', from: { blob: 'blob-before' } }, undone: [0], conflicts: [] });
    // The per-hunk planner refuses such a change instead of computing hunks of it.
    assert.equal(planUndo(change, { kind: 'unreadable', reason: 'larger than 2 MB' }, undefined, view).action.type, 'none');
  });

  it('refuses when the file changed after the agent (hash or size), or has unsaved changes', () => {
    const { change, view } = largeChange(copy('blob-before'), left('agent'));
    for (const current of [file('user'), file('agent', 5 * MB + 1), { kind: 'absent' } as const]) {
      const plan = planWholeUndo(change, view, current);
      assert.equal(plan.action.type, 'none');
      assert.match(plan.refused ?? '', /changed since the agent wrote it/);
    }
    const dirty = planWholeUndo(change, view, file('agent', 5 * MB, true));
    assert.equal(dirty.action.type, 'none');
    assert.match(dirty.refused ?? '', /unsaved changes/);
  });

  it('refuses while what the agent left has no hash, and says why', () => {
    const { change, view } = largeChange(copy('blob-before'), { kind: 'large', size: 5 * MB, unreliable: 'it changed again while it was being read' });
    assert.match(planWholeUndo(change, view, file('agent')).refused ?? '', /could not be checked \(it changed again/);
  });

  it('deletes a large file the agent created, puts back a small file it grew, recreates a large file it deleted', () => {
    const created = largeChange({ kind: 'absent' }, left('agent'));
    assert.deepEqual(planWholeUndo(created.change, created.view, file('agent')).action, { type: 'delete' });
    const small = encodeText('small\r\n', true);
    const grew = largeChange({ kind: 'bytes', bytes: small }, left('agent'));
    assert.deepEqual(planWholeUndo(grew.change, grew.view, file('agent')).action, { type: 'put', from: { bytes: small } });
    const deleted = largeChange(copy('blob-before'), { kind: 'absent' });
    assert.deepEqual(planWholeUndo(deleted.change, deleted.view, { kind: 'absent' }).action, { type: 'put', from: { blob: 'blob-before' } });
    assert.match(planWholeUndo(deleted.change, deleted.view, file('new')).refused ?? '', /changed since/);
  });

  it('checks a small file the agent left against its bytes', () => {
    const after = encodeText('shrunk\n', false);
    const shrunk = largeChange(copy('blob-before'), { kind: 'bytes', bytes: after });
    assert.equal(shrunk.view.wholeFile, true);
    assert.equal(planWholeUndo(shrunk.change, shrunk.view, file('shrunk\n', after.length)).action.type, 'put');
    assert.match(planWholeUndo(shrunk.change, shrunk.view, file('shrunk!\n', after.length)).refused ?? '', /changed since/);
  });

  it('does nothing once undone', () => {
    const { change } = largeChange(copy('blob-before'), left('agent'));
    change.hunkStates = ['undone'];
    assert.deepEqual(planWholeUndo(change, viewOf(change), file('before')), { action: { type: 'none' }, undone: [], conflicts: [] });
  });
});
