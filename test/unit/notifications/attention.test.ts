import * as assert from 'node:assert/strict';
import { Attention, attentionMessage, parseNotifySetting, type AttentionEvent } from '../../../src/extension/notifications/model/attention';

const event = (sessionId: string, kind: AttentionEvent['kind'] = 'done'): AttentionEvent => ({ sessionId, kind, agentName: 'Claude', title: 'Fix the parser' });

describe('done / needs-you signal (model)', () => {
  it('whenAway: notifies and counts only sessions not on screen', () => {
    const attention = new Attention();
    assert.equal(attention.raise(event('a'), { setting: 'whenAway', onScreen: true }), false);
    assert.equal(attention.count, 0);
    assert.equal(attention.raise(event('b'), { setting: 'whenAway', onScreen: false }), true);
    assert.equal(attention.count, 1);
  });

  it('one entry per session: a newer event replaces the older; showing it clears it', () => {
    const attention = new Attention();
    attention.raise(event('a', 'question'), { setting: 'whenAway', onScreen: false });
    attention.raise(event('a', 'done'), { setting: 'whenAway', onScreen: false });
    attention.raise(event('b', 'failed'), { setting: 'whenAway', onScreen: false });
    assert.equal(attention.count, 2);
    assert.deepEqual(attention.events.map((e) => [e.sessionId, e.kind]), [['a', 'done'], ['b', 'failed']]);
    assert.equal(attention.seen('a'), true);
    assert.equal(attention.seen('a'), false);
    assert.equal(attention.count, 1);
  });

  it('always notifies even on screen; off never notifies nor counts', () => {
    const attention = new Attention();
    assert.equal(attention.raise(event('a'), { setting: 'always', onScreen: true }), true);
    assert.equal(attention.count, 0, 'on screen: nothing waits');
    assert.equal(attention.raise(event('b'), { setting: 'off', onScreen: false }), false);
    assert.equal(attention.count, 0);
  });

  it('names the agent and the session, then what happened', () => {
    assert.equal(attentionMessage(event('a')), 'Claude · Fix the parser: finished.');
    assert.equal(attentionMessage({ ...event('a', 'failed'), detail: 'Agent exited with code 3.\nstderr' }), 'Claude · Fix the parser: the turn failed: Agent exited with code 3.');
    assert.equal(attentionMessage(event('a', 'question')), 'Claude · Fix the parser: needs your answer.');
    assert.equal(parseNotifySetting('nonsense'), 'whenAway');
    assert.equal(parseNotifySetting('off'), 'off');
  });
});
