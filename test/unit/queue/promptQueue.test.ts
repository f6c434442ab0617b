import * as assert from 'node:assert/strict';
import { MAX_QUEUED, MAX_STORED_QUEUES, PromptQueue, presentAttachments, waitingReason, withStoredQueue } from '../../../src/extension/queue/model/promptQueue';
import { steerOutcome, steeringParams, steeringSupported } from '../../../src/extension/queue/model/steering';

const isString = (value: unknown): value is string => typeof value === 'string';
const texts = (queue: PromptQueue<string>) => queue.items.map((i) => i.text);
const added = <A>(result: ReturnType<PromptQueue<A>['add']>) => {
  if ('error' in result) throw new Error(result.error);
  return result;
};

describe('prompt queue (model)', () => {
  it('sends in order, and flows after end_turn and max_tokens', () => {
    const queue = new PromptQueue<string>();
    queue.add('one');
    queue.add('two', ['chip']);
    queue.turnEnded({ kind: 'stopped', stopReason: 'end_turn' });
    assert.equal(queue.takeNext()?.text, 'one');
    queue.turnEnded({ kind: 'stopped', stopReason: 'max_tokens' });
    assert.deepEqual(queue.takeNext()?.attachments, ['chip']);
    assert.equal(queue.takeNext(), undefined);
  });

  it('waits after cancelled, refusal and errors, and says why; Resume lets it flow', () => {
    for (const outcome of [
      { kind: 'stopped', stopReason: 'cancelled' },
      { kind: 'stopped', stopReason: 'refusal' },
      { kind: 'failed', message: 'Agent "x" exited with code 1.\nstderr' },
      { kind: 'stopped', stopReason: 'a_newer_reason' },
    ] as const) {
      const queue = new PromptQueue<string>();
      queue.add('next');
      queue.turnEnded(outcome);
      assert.ok(queue.waiting, JSON.stringify(outcome));
      assert.equal(queue.takeNext(), undefined, 'nothing is sent while it waits');
      queue.resume();
      assert.equal(queue.takeNext()?.text, 'next');
    }
    assert.match(waitingReason({ kind: 'failed', message: 'Agent "x" exited with code 1.\nstderr' }) ?? '', /exited with code 1\. The queue waits/);
  });

  it('a waiting queue keeps waiting after a later good turn, until Resume', () => {
    const queue = new PromptQueue<string>();
    queue.add('next');
    queue.turnEnded({ kind: 'stopped', stopReason: 'cancelled' });
    queue.turnEnded({ kind: 'stopped', stopReason: 'end_turn' });
    assert.match(queue.waiting ?? '', /cancelled/);
  });

  it('an empty queue never waits', () => {
    const queue = new PromptQueue<string>();
    queue.turnEnded({ kind: 'stopped', stopReason: 'cancelled' });
    assert.equal(queue.waiting, undefined);
  });

  it('edits, removes and reorders; refuses an empty edit and unknown ids', () => {
    const queue = new PromptQueue<string>();
    const a = added(queue.add('a', ['file.ts']));
    const b = added(queue.add('b'));
    added(queue.add('c'));
    assert.deepEqual(queue.edit(a.id, 'A'), { ok: true });
    assert.deepEqual(queue.get(a.id)?.attachments, ['file.ts'], 'the chips stay with an edited prompt');
    assert.equal(queue.edit(a.id, '  ').ok, false);
    assert.equal(queue.edit('nope', 'x').ok, false);
    assert.deepEqual(queue.move(b.id, 99), { ok: true });
    assert.deepEqual(texts(queue), ['A', 'c', 'b']);
    assert.deepEqual(queue.move(b.id, 0), { ok: true });
    assert.deepEqual(texts(queue), ['b', 'A', 'c']);
    assert.equal(queue.remove(a.id)?.text, 'A');
    assert.equal(queue.remove(a.id), undefined);
    assert.deepEqual(texts(queue), ['b', 'c']);
  });

  it(`holds ${MAX_QUEUED} prompts and refuses the next with a clear error`, () => {
    const queue = new PromptQueue<string>();
    for (let i = 0; i < MAX_QUEUED; i++) added(queue.add(`p${i}`));
    const refused = queue.add('one too many');
    assert.ok('error' in refused && /100 prompts at most/.test(refused.error));
    assert.equal(queue.size, MAX_QUEUED);
  });

  it('a steer that became the next prompt goes first', () => {
    const queue = new PromptQueue<string>();
    queue.add('later');
    queue.add('steer', [], { first: true, note: 'the agent refused the steer' });
    assert.deepEqual(texts(queue), ['steer', 'later']);
    assert.equal(queue.items[0]?.note, 'the agent refused the steer');
  });

  it('round-trips through its snapshot, and a malformed store yields what is readable', () => {
    const queue = new PromptQueue<string>();
    queue.add('one', ['chip'], { note: 'why' });
    queue.add('two');
    queue.turnEnded({ kind: 'stopped', stopReason: 'cancelled' });
    const restored = PromptQueue.restore(JSON.parse(JSON.stringify(queue.snapshot())), isString);
    assert.deepEqual(restored.snapshot(), queue.snapshot());
    const odd = PromptQueue.restore({ items: [{ text: 'ok', attachments: [1, 'x'] }, { text: 3 }, null, { text: '' }], waiting: 5 }, isString);
    assert.deepEqual(odd.snapshot(), { items: [{ text: 'ok', attachments: ['x'] }] });
    assert.equal(PromptQueue.restore('garbage', isString).size, 0);
  });
});

describe('queued attachments that are gone', () => {
  it('keeps those that exist and names the rest', () => {
    assert.deepEqual(
      presentAttachments(['a.ts', 'gone.ts', 'b.ts', 'also-gone.ts'], (name) => (name.includes('gone') ? name : undefined)),
      { kept: ['a.ts', 'b.ts'], missing: ['gone.ts', 'also-gone.ts'] },
    );
  });
});

describe('steering (model)', () => {
  it('is supported only for `_meta.steering.supported === true`', () => {
    assert.equal(steeringSupported({ _meta: { steering: { supported: true } } }), true);
    for (const response of [undefined, null, {}, { _meta: null }, { _meta: [] }, { _meta: { steering: true } }, { _meta: { steering: { supported: 'true' } } }, { _meta: { steering: [true] } }, { agentCapabilities: { _meta: { steering: { supported: true } } } }]) {
      assert.equal(steeringSupported(response), false, JSON.stringify(response));
    }
  });

  it('always sends the promptRequired opt-in', () => {
    assert.deepEqual(steeringParams('s1', [{ type: 'text', text: 'hi' }]), { sessionId: 's1', prompt: [{ type: 'text', text: 'hi' }], _meta: { steering: { idleBehavior: 'promptRequired' } } });
  });

  it('reads the outcomes, and anything else as a failure with what came', () => {
    assert.deepEqual(steerOutcome({ outcome: 'injected' }), { kind: 'injected' });
    assert.deepEqual(steerOutcome({ outcome: 'startedNewTurn' }), { kind: 'injected' });
    assert.deepEqual(steerOutcome({ outcome: 'promptRequired', reason: 'noRunningTurn' }), { kind: 'promptRequired' });
    assert.equal(steerOutcome({ outcome: 'failed' }).kind, 'failed');
    const odd = steerOutcome({ outcome: 'maybe' });
    assert.ok(odd.kind === 'failed' && odd.reason.includes('maybe'));
    assert.equal(steerOutcome(null).kind, 'failed');
  });

  describe('the queues the workspace keeps', () => {
    it('keeps the newest changed last and drops the longest untouched past the limit', () => {
      let stored: Record<string, unknown> = {};
      for (let i = 0; i < MAX_STORED_QUEUES; i++) stored = withStoredQueue(stored, `s${i}`, { items: [{ text: `p${i}` }] });
      // s0 changes again: now the newest, so s1 is the one to go when one more comes.
      stored = withStoredQueue(stored, 's0', { items: [{ text: 'p0 edited' }] });
      stored = withStoredQueue(stored, 'new', { items: [{ text: 'new' }] });
      assert.equal(Object.keys(stored).length, MAX_STORED_QUEUES);
      assert.ok(!('s1' in stored), 'the longest untouched is dropped');
      assert.deepEqual(Object.keys(stored).slice(-2), ['s0', 'new']);
      assert.deepEqual(stored.s0, { items: [{ text: 'p0 edited' }] });
    });

    it('takes a sent or deleted queue out, leaving the others as they were', () => {
      const stored = { a: { items: [{ text: 'x' }] }, b: { items: [{ text: 'y' }] } };
      assert.deepEqual(withStoredQueue(stored, 'a', undefined), { b: { items: [{ text: 'y' }] } });
      assert.deepEqual(Object.keys(stored), ['a', 'b'], 'the stored object itself is not changed');
    });
  });
});
