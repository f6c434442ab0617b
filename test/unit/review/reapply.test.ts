import * as assert from 'node:assert/strict';
import { computeHunks, reapplyHunks, undoHunks } from '../../../src/extension/review/model/actionHunks';
import type { Snapshot } from '../../../src/extension/review/model/actionLog';
import { planReapply, planUndo } from '../../../src/extension/review/model/undoPlan';
import { bytes, loggedChange as change } from './loggedChange';
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

describe('action log: re-applying undone hunks', () => {
  const before = lines(20);
  // Three hunks: a changed line, one line made two, a deleted line.
  const after = before.replace('line 2\n', 'line two\n').replace('line 10\n', 'line ten\nline ten and a half\n').replace('line 18\n', '');
  const hunks = computeHunks(before, after);

  it('puts an undone hunk back exactly as the agent wrote it, the other undone one staying undone', () => {
    const undone = undoHunks(after, after, hunks, [0, 1]).text;
    const result = reapplyHunks(after, undone, hunks, [0, 1], [1]);
    assert.deepEqual(result.reapplied, [1]);
    assert.equal(result.text, after.replace('line two\n', 'line 2\n'));
  });

  it('re-applying every undone hunk gives back what the agent left, byte for byte', () => {
    const undone = undoHunks(after, after, hunks, [0, 1, 2]).text;
    assert.equal(undone, before);
    assert.equal(reapplyHunks(after, undone, hunks, [0, 1, 2], [0, 1, 2]).text, after);
  });

  it('keeps the user\'s edits made after the undo, and leaves alone a hunk whose restored lines they changed', () => {
    const undone = undoHunks(after, after, hunks, [0, 2]).text;
    // The user edits line 1 (beside hunk 0, not in it) and rewrites line 18, which the undo of hunk 2 put back.
    const edited = undone.replace('line 1\n', 'my line 1\n').replace('line 18\n', 'my line 18\n');
    const result = reapplyHunks(after, edited, hunks, [0, 2], [0, 2]);
    assert.deepEqual(result.reapplied, [0]);
    assert.deepEqual(result.conflicts, [2]);
    assert.equal(result.text, edited.replace('line 2\n', 'line two\n'));
  });

  it('restores CRLF lines and a missing final newline exactly', () => {
    const crlfBefore = 'a\r\nb\r\nc';
    const crlfAfter = 'a\r\nB\r\nc\r\nd';
    const h = computeHunks(crlfBefore, crlfAfter);
    const undone = undoHunks(crlfAfter, crlfAfter, h, h.map((_, i) => i)).text;
    assert.equal(undone, crlfBefore);
    assert.equal(reapplyHunks(crlfAfter, undone, h, h.map((_, i) => i), h.map((_, i) => i)).text, crlfAfter);
  });

  describe('plans', () => {

    it('re-applies only undone hunks: a kept or pending one is not touched', () => {
      const c = change(bytes('a\nb\nc\nd\n'), bytes('A\nb\nc\nD\n'));
      c.hunkStates = ['kept', 'undone'];
      const plan = planReapply(c, { kind: 'text', text: 'A\nb\nc\nd\n' });
      assert.deepEqual(plan.action, { type: 'edit', text: 'A\nb\nc\nD\n' });
      assert.deepEqual(plan.reapplied, [1]);
      assert.deepEqual(planReapply(c, { kind: 'text', text: 'A\nb\nc\nd\n' }, [0]).action, { type: 'none' });
    });

    it('undo then re-apply then undo again walks the file back and forth', () => {
      const c = change(bytes('a\nb\nc\nd\n'), bytes('A\nb\nc\nD\n'));
      const first = planUndo(c, { kind: 'text', text: 'A\nb\nc\nD\n' }, [0]);
      assert.deepEqual(first.action, { type: 'edit', text: 'a\nb\nc\nD\n' });
      c.hunkStates[0] = 'undone';
      const back = planReapply(c, { kind: 'text', text: 'a\nb\nc\nD\n' }, [0]);
      assert.deepEqual(back.action, { type: 'edit', text: 'A\nb\nc\nD\n' });
      c.hunkStates[0] = 'kept';
      assert.deepEqual(planUndo(c, { kind: 'text', text: 'A\nb\nc\nD\n' }, [0]).action, { type: 'edit', text: 'a\nb\nc\nD\n' });
    });

    it('recreates an undone created file, and deletes an undone deleted file only as it was', () => {
      const created = change({ kind: 'absent' }, bytes('new\n'));
      created.hunkStates = ['undone'];
      assert.equal(planReapply(created, { kind: 'absent' }).action.type, 'create');
      const taken = planReapply(created, { kind: 'text', text: 'mine\n' });
      assert.deepEqual([taken.action.type, taken.conflicts], ['none', [0]]);
      const deleted = change(bytes('old\n'), { kind: 'absent' });
      deleted.hunkStates = ['undone'];
      assert.equal(planReapply(deleted, { kind: 'text', text: 'old\n' }).action.type, 'delete');
      assert.equal(planReapply(deleted, { kind: 'text', text: 'old\nmine\n' }).action.type, 'none');
    });

    it('refuses a file that is not UTF-8 text rather than rewriting it', () => {
      const latin1: Snapshot = { kind: 'bytes', bytes: new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) };
      const c = change(latin1, bytes('cafe\n'));
      c.hunkStates = ['undone'];
      const plan = planReapply(c, { kind: 'text', text: 'cafe\n' });
      assert.deepEqual(plan.action, { type: 'none' });
      assert.match(plan.refused ?? '', /not UTF-8 text/);
    });

    it('refuses a file over 2 MB, whose agent text is not kept', () => {
      const c = change({ kind: 'large', size: 3_000_000, sha256: 'x', blob: 'b' }, { kind: 'large', size: 3_000_001, sha256: 'y' });
      c.hunkStates = ['undone'];
      assert.match(planReapply(c, { kind: 'absent' }).refused ?? '', /over 2 MB/);
    });
  });
});
