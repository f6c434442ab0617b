import * as assert from 'node:assert/strict';
import {
  MAX_REFRESH_DELAY_MS,
  MIN_REFRESH_DELAY_MS,
  MIN_REFRESH_INTERVAL_MS,
  VSCODE_TREE_DEBOUNCE_MS,
  PendingRefresh,
  refreshDelay,
  sessionListChange,
} from '../../../../src/extension/cards/tree/model/treeRefresh';

describe('Tool Calls tree refresh targets', () => {
  it('names the changed nodes rather than the root, and starts over once taken', () => {
    const pending = new PendingRefresh();
    assert.ok(pending.empty);
    pending.call('s1', 'c1');
    pending.call('s1', 'c2');
    pending.call('s1', 'c1');
    pending.review('s2');
    assert.ok(!pending.empty);
    assert.deepEqual(pending.take(), {
      root: false,
      sessions: [],
      calls: [
        { sessionId: 's1', toolCallId: 'c1' },
        { sessionId: 's1', toolCallId: 'c2' },
      ],
      reviews: ['s2'],
    });
    assert.ok(pending.empty, 'taken targets are not refreshed twice');
  });

  it('leaves out calls and review nodes of a session refreshed as a whole', () => {
    const pending = new PendingRefresh();
    pending.call('s1', 'c1');
    pending.review('s1');
    pending.session('s1');
    pending.call('s2', 'c9');
    assert.deepEqual(pending.take(), { root: false, sessions: ['s1'], calls: [{ sessionId: 's2', toolCallId: 'c9' }], reviews: [] });
  });

  it('refreshes only the root once sessions came or went', () => {
    const pending = new PendingRefresh();
    pending.session('s1');
    pending.call('s2', 'c1');
    pending.everything();
    assert.deepEqual(pending.take(), { root: true, sessions: [], calls: [], reviews: [] });
  });

  it('tells a new, closed or reordered session from one that only started or finished a turn', () => {
    const a = { id: 'a', busy: false };
    const b = { id: 'b', busy: false };
    assert.deepEqual(sessionListChange([a], [a, b]), { root: true, changed: [] });
    assert.deepEqual(sessionListChange([a, b], [b]), { root: true, changed: [] });
    assert.deepEqual(sessionListChange([a, b], [b, a]), { root: true, changed: [] });
    assert.deepEqual(sessionListChange([a, b], [a, { id: 'b', busy: true }]), { root: false, changed: ['b'] });
    assert.deepEqual(sessionListChange([a, b], [a, b]), { root: false, changed: [] });
  });

  it('waits longer after a costly refresh, within bounds', () => {
    assert.equal(refreshDelay(0), MIN_REFRESH_DELAY_MS, 'nothing measured yet');
    assert.equal(refreshDelay(Number.NaN), MIN_REFRESH_DELAY_MS);
    assert.equal(refreshDelay(2), MIN_REFRESH_DELAY_MS, 'a cheap refresh keeps the quickest pace');
    assert.equal(refreshDelay(20), 200, 'the tree keeps to about a tenth of the host');
    assert.equal(refreshDelay(400), MAX_REFRESH_DELAY_MS, 'the view still follows the agent');
  });

  it('keeps two refreshes further apart than VS Code debounces them', () => {
    assert.equal(refreshDelay(0, Number.POSITIVE_INFINITY), MIN_REFRESH_DELAY_MS, 'a lone change shows quickly');
    assert.equal(refreshDelay(0, 10), MIN_REFRESH_INTERVAL_MS - 10);
    assert.equal(refreshDelay(40, 10), 400, 'a costly refresh waits longer still');
    assert.ok(MIN_REFRESH_INTERVAL_MS > VSCODE_TREE_DEBOUNCE_MS);
  });

  it('is redrawn all through a storm, not only at its start and end', () => {
    // A 2 s storm of changes every 5 ms through the tree's timer (refreshDelay) and VS Code's own
    // debounce of change events (200 ms, trailing, the first at once when none is pending).
    const events: { at: number; run: () => void }[] = [];
    let now = 0;
    const at = (time: number, run: () => void) => events.push({ at: time, run });
    const redraws: number[] = [];
    let debounceUntil: number | undefined;
    let debounced = 0;
    let debounceTimer = 0;
    const vscodeChangeEvent = () => {
      debounced++;
      if (debounceUntil === undefined) {
        redraws.push(now);
        debounced = 0;
      }
      const timer = ++debounceTimer;
      debounceUntil = now + VSCODE_TREE_DEBOUNCE_MS;
      at(debounceUntil, () => {
        if (timer !== debounceTimer) return;
        if (debounced > 0) redraws.push(now);
        debounceUntil = undefined;
        debounced = 0;
      });
    };
    let timerSet = false;
    let lastFired = Number.NEGATIVE_INFINITY;
    const change = () => {
      if (timerSet) return;
      timerSet = true;
      at(now + refreshDelay(1, now - lastFired), () => {
        timerSet = false;
        lastFired = now;
        vscodeChangeEvent();
      });
    };
    for (let t = 0; t < 2000; t += 5) at(t, change);
    while (events.length > 0) {
      events.sort((a, b) => a.at - b.at);
      const next = events.shift() as (typeof events)[number];
      now = next.at;
      next.run();
    }
    const during = redraws.filter((t) => t > 100 && t < 2000);
    assert.ok(during.length >= 6, `redrawn ${during.length} times during the storm (at ${redraws.join(', ')} ms)`);
  });
});
