import * as assert from 'node:assert/strict';
import { BARS, CADENCES, HOLD_MS, LagController, catchingUpText, type LagSample } from '../../../src/extension/pacing/model/lagController';
import { ANSWER_STALE_MS, NEVER_ANSWERED_MS, ResponseLag } from '../../../src/extension/pacing/model/responseLag';

const calm: LagSample = { chatMs: 0, treeMs: 0, loopMs: 2 };

describe('Window lag controller', () => {
  it('keeps the normal cadence while the window keeps up', () => {
    const lag = new LagController();
    for (let t = 0; t < 5000; t += 100) assert.equal(lag.update({ chatMs: 40, treeMs: 90, loopMs: 8 }, t), 'normal');
    assert.deepEqual(lag.cadence, CADENCES.normal);
  });

  it('slows down when any one signal passes its bar: the chat, the tree or the host loop', () => {
    for (const sample of [
      { ...calm, chatMs: BARS.enter.chatMs + 1 },
      { ...calm, treeMs: BARS.enter.treeMs + 1 },
      { ...calm, loopMs: BARS.enter.loopMs + 1 },
    ]) {
      const lag = new LagController();
      assert.equal(lag.update(sample, 0), 'behind', JSON.stringify(sample));
      assert.ok(lag.cadence.chatFlushMs > CADENCES.normal.chatFlushMs);
      assert.ok(lag.cadence.treeRefreshMs > CADENCES.normal.treeRefreshMs);
      assert.ok(lag.cadence.terminalDeliverMs > CADENCES.normal.terminalDeliverMs);
    }
  });

  it('goes far behind one step at a time, never on a single late sample', () => {
    const lag = new LagController();
    const far = { ...calm, chatMs: BARS.far.chatMs + 500 };
    assert.equal(lag.update(far, 0), 'behind');
    assert.equal(lag.update(far, 100), 'farBehind');
    assert.equal(lag.update(far, 200), 'farBehind');
    assert.ok(CADENCES.farBehind.chatFlushMs > CADENCES.behind.chatFlushMs);
    assert.ok(CADENCES.farBehind.treeRefreshMs > CADENCES.behind.treeRefreshMs);
  });

  it('holds its level between the bars (hysteresis): no flapping with each sample', () => {
    const lag = new LagController();
    lag.update({ ...calm, chatMs: 300 }, 0);
    // Under the bar to slow down, over the bar to catch up: stays behind.
    const between = { chatMs: (BARS.enter.chatMs + BARS.leave.chatMs) / 2, treeMs: 0, loopMs: 0 };
    for (let t = 100; t < 3000; t += 100) assert.equal(lag.update(between, t), 'behind');
  });

  it('returns straight to normal once every signal stayed under its leave bar for the hold time', () => {
    const lag = new LagController();
    lag.update({ ...calm, loopMs: 500 }, 0);
    lag.update({ ...calm, loopMs: 500 }, 100);
    assert.equal(lag.level, 'farBehind');
    assert.equal(lag.update(calm, 200), 'farBehind');
    assert.equal(lag.update(calm, 200 + HOLD_MS - 1), 'farBehind');
    assert.equal(lag.update(calm, 200 + HOLD_MS), 'normal');
    assert.deepEqual(lag.cadence, CADENCES.normal);
  });

  it('starts the hold over when a signal rises again before it ends', () => {
    const lag = new LagController();
    lag.update({ ...calm, treeMs: 600 }, 0);
    lag.update(calm, 100);
    lag.update({ ...calm, treeMs: BARS.leave.treeMs + 10 }, 200);
    assert.equal(lag.update(calm, 300), 'behind');
    assert.equal(lag.update(calm, 300 + HOLD_MS - 1), 'behind');
    assert.equal(lag.update(calm, 300 + HOLD_MS), 'normal');
  });

  it('says how many calls there are while it shows the newest', () => {
    assert.equal(catchingUpText(4812), '4,812 calls, showing the newest');
    assert.equal(catchingUpText(1), '1 call, showing the newest');
  });
});

describe('Response lag of the window', () => {
  it('is the age of the oldest unanswered message', () => {
    const lag = new ResponseLag();
    lag.sent(0);
    lag.sent(50);
    assert.equal(lag.lagAt(120), 120);
    assert.equal(lag.pending, 2);
  });

  it('answers in order: an acknowledgement covers everything sent before it', () => {
    const lag = new ResponseLag();
    lag.sent(0);
    const second = lag.sent(100);
    lag.sent(200);
    lag.answered(second, 300);
    assert.equal(lag.pending, 1);
    // The oldest waiting (sent at 200) is 100 ms old; the last answer was 300 ms late.
    assert.equal(lag.lagAt(300), 300);
    lag.answered(Infinity, 320);
    assert.equal(lag.pending, 0);
    assert.equal(lag.lagAt(330), 120);
  });

  it('forgets a late answer once nothing was sent for a while, so an ended storm reads as caught up', () => {
    const lag = new ResponseLag();
    lag.answered(lag.sent(0), 500);
    assert.equal(lag.lagAt(600), 500);
    assert.equal(lag.lagAt(500 + ANSWER_STALE_MS), 0);
  });

  it('does not wait for what is sent untimed, and an answer to it still answers what came before', () => {
    const lag = new ResponseLag();
    lag.sent(0);
    const text = lag.sent(100, false);
    assert.equal(lag.pending, 1);
    lag.answered(text, 150);
    assert.equal(lag.pending, 0);
    assert.equal(lag.lagAt(150), 150);
    lag.sent(1000, false);
    // Untimed and unanswered: the window is not behind on it, however long it takes.
    assert.equal(lag.lagAt(3000), 0);
  });

  it('ignores answers to messages it forgot (the webview started over)', () => {
    const lag = new ResponseLag();
    const seq = lag.sent(0);
    lag.forget();
    lag.answered(seq, 2000);
    assert.equal(lag.lagAt(2000), 0);
  });

  it('gives up on a message never answered: late once, then caught up', () => {
    const lag = new ResponseLag();
    lag.sent(0);
    const late = lag.lagAt(NEVER_ANSWERED_MS + 1);
    assert.equal(late, NEVER_ANSWERED_MS + 1);
    assert.equal(lag.pending, 0);
    assert.equal(lag.lagAt(NEVER_ANSWERED_MS + 1 + ANSWER_STALE_MS), 0);
  });
});
