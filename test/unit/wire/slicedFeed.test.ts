import * as assert from 'node:assert/strict';
import { SlicedFeed } from '../../../src/extension/wire/slicedFeed';

/** A feed of strings weighed by length, whose later turns run only when the test says so. */
function feedOf(budget: number) {
  const delivered: string[] = [];
  const turns: (() => void)[] = [];
  let drained = 0;
  const feed = new SlicedFeed<string>({
    deliver: (item) => {
      delivered.push(item);
    },
    sizeOf: (item) => item.length,
    budget,
    nextTurn: (fn) => turns.push(fn),
    onDrained: () => drained++,
  });
  const nextTurn = () => {
    const fn = turns.shift();
    assert.ok(fn, 'a later turn was scheduled');
    fn();
  };
  return { feed, delivered, turns, nextTurn, drained: () => drained };
}

describe('SlicedFeed (agent stdout lines, a slice per event-loop turn)', () => {
  it('delivers what fits the budget now and the rest on later turns, in order', () => {
    const t = feedOf(10);
    t.feed.push(['aaaa', 'bbbb', 'cccc', 'dddd', 'eee']);
    assert.deepEqual(t.delivered, ['aaaa', 'bbbb'], 'the first slice: 8 of 10, the next line would exceed it');
    assert.equal(t.feed.pending, 3);
    assert.equal(t.drained(), 0);
    t.nextTurn();
    assert.deepEqual(t.delivered, ['aaaa', 'bbbb', 'cccc', 'dddd']);
    t.nextTurn();
    assert.deepEqual(t.delivered, ['aaaa', 'bbbb', 'cccc', 'dddd', 'eee']);
    assert.equal(t.drained(), 1, 'drained once, after the last slice');
    assert.equal(t.turns.length, 0);
  });

  it('delivers a line heavier than the budget alone in its own turn', () => {
    const t = feedOf(10);
    t.feed.push(['x'.repeat(50), 'a', 'b']);
    assert.deepEqual(t.delivered, ['x'.repeat(50)]);
    t.nextTurn();
    assert.deepEqual(t.delivered, ['x'.repeat(50), 'a', 'b']);
    assert.equal(t.drained(), 1);
  });

  it('drains at once when a read fits one slice, and when a read had no complete line', () => {
    const t = feedOf(100);
    t.feed.push(['a', 'b']);
    assert.deepEqual(t.delivered, ['a', 'b']);
    assert.equal(t.drained(), 1);
    t.feed.push([]);
    assert.equal(t.drained(), 2, 'a read with no full line lets the source read on');
    assert.equal(t.turns.length, 0);
  });

  it('queues what arrives while slices are pending behind them, without delivering out of turn', () => {
    const t = feedOf(4);
    t.feed.push(['aaa', 'bbb']);
    assert.deepEqual(t.delivered, ['aaa']);
    t.feed.push(['ccc']);
    assert.deepEqual(t.delivered, ['aaa'], 'nothing jumps the queue');
    t.nextTurn();
    t.nextTurn();
    assert.deepEqual(t.delivered, ['aaa', 'bbb', 'ccc']);
    assert.equal(t.drained(), 1);
  });

  it('holds later items while one is handled elsewhere (a promise), then goes on in order', async () => {
    const delivered: string[] = [];
    let finish!: () => void;
    const slow = new Promise<void>((resolve) => (finish = resolve));
    const turns: (() => void)[] = [];
    let drained = 0;
    const feed = new SlicedFeed<string>({
      deliver: (item) => {
        delivered.push(item);
        return item === 'huge' ? slow : undefined;
      },
      sizeOf: (item) => item.length,
      budget: 100,
      nextTurn: (fn) => turns.push(fn),
      onDrained: () => drained++,
    });
    feed.push(['a', 'huge', 'b', 'c']);
    feed.push(['d']);
    assert.deepEqual(delivered, ['a', 'huge'], 'the items after it wait, though they fit the budget');
    assert.equal(turns.length, 0, 'no turn scheduled while it is handled');
    finish();
    await slow;
    await Promise.resolve();
    assert.equal(turns.length, 1, 'once settled, the rest goes on a later turn');
    turns.shift()!();
    assert.deepEqual(delivered, ['a', 'huge', 'b', 'c', 'd']);
    assert.equal(drained, 1);
  });

  it('leaves the event loop free between slices with the default scheduler (setImmediate)', async () => {
    let delivered = 0;
    const drained = new Promise<void>((resolve) => {
      const feed = new SlicedFeed<string>({ deliver: () => {
          delivered++;
        },
        sizeOf: (item) => item.length, budget: 10, onDrained: resolve });
      feed.push(Array.from({ length: 5 }, () => 'x'.repeat(10)));
    });
    assert.equal(delivered, 1, 'one slice now');
    // Other work queued meanwhile runs between slices, not after all of them.
    const between = await new Promise<number>((resolve) => setImmediate(() => resolve(delivered)));
    assert.equal(between, 2);
    await drained;
    assert.equal(delivered, 5);
  });
});
