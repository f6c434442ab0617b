import * as assert from 'node:assert/strict';
import { encodeText } from '../../../src/extension/review/model/actionHunks';
import { ActionLog, turnChangeLabels, viewOf, type Snapshot } from '../../../src/extension/review/model/actionLog';

const bytes = (text: string): Snapshot => ({ kind: 'bytes', bytes: encodeText(text, false) });

describe('action log: who made each change (review per subagent)', () => {
  it('records a subagent’s change as its own, even of a file the parent changed in the same turn', () => {
    const log = new ActionLog();
    log.beginTurn('p', 0);
    const mine = log.record('p', '/w/a.txt', 'tool', bytes('one\n'), 't1');
    const theirs = log.attribute('child', () => log.record('p', '/w/a.txt', 'tool', bytes('one\n'), 't2'));
    const again = log.attribute('child', () => log.record('p', '/w/a.txt', 'tool', bytes('ignored\n'), 't3'));
    assert.notEqual(mine, theirs, 'two changes: each can be undone alone');
    assert.equal(again, theirs, 'the subagent’s later call joins its own change');
    assert.equal(mine.madeBy, undefined);
    assert.equal(theirs.madeBy, 'child');
    assert.deepEqual(theirs.toolCallIds, ['t2', 't3']);
    assert.equal(log.inTurn('p', '/w/a.txt'), mine, 'outside `attribute`, the session’s own change');
  });

  it('keeps the attribution through serialize and replaceSession', () => {
    const log = new ActionLog();
    log.beginTurn('p', 0);
    const change = log.attribute('child', () => log.record('p', '/w/b.txt', 'tool', bytes('x\n'), 't1'));
    log.setAfter(change, bytes('y\n'));
    const data = log.serialize('p');
    assert.ok(data);
    const copy = new ActionLog();
    copy.replaceSession('p', data);
    assert.equal(copy.changes('p')[0]?.madeBy, 'child');
  });

  it('the turn summary says what each subagent changed', () => {
    const log = new ActionLog();
    log.beginTurn('p', 0);
    for (const [path, by] of [['/w/a', undefined], ['/w/b', 'c1'], ['/w/c', 'c1']] as const) {
      const change = log.attribute(by, () => log.record('p', path, 'tool', bytes('1\n'), path));
      log.setAfter(change, bytes('2\n'));
    }
    const label = turnChangeLabels(log.changes('p').map((c) => viewOf(c)), (id) => (id === 'c1' ? 'Read hello' : id));
    assert.equal(label(0), '3 files, +3 −3 · Read hello (subagent): 2 files');
    assert.equal(turnChangeLabels(log.changes('p').map((c) => viewOf(c)))(0), '3 files, +3 −3', 'without names: as before');
  });
});
