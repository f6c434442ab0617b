import * as assert from 'node:assert/strict';
import { onAnyDispose, Scope } from '../../../src/extension/base/scope';

describe('Scope (what lives as long as a session or an agent)', () => {
  it('lets go of what registered, newest first, once', () => {
    const scope = new Scope();
    const order: string[] = [];
    scope.onDispose(() => order.push('first'));
    scope.onDispose(() => order.push('second'));
    scope.dispose();
    scope.dispose();
    assert.deepEqual(order, ['second', 'first']);
    assert.equal(scope.isDisposed, true);
  });

  it('runs a registration made after disposal at once', () => {
    const scope = new Scope();
    scope.dispose();
    let ran = false;
    scope.onDispose(() => (ran = true));
    assert.equal(ran, true);
  });

  it('forgets what ended on its own, and keeps one entry per key', () => {
    const scope = new Scope();
    const ran: string[] = [];
    const answered = scope.onDispose(() => ran.push('answered question'));
    answered.dispose();
    const owner = {};
    scope.once(owner, () => ran.push('bookkeeping'));
    scope.once(owner, () => ran.push('bookkeeping again'));
    scope.dispose();
    assert.deepEqual(ran, ['bookkeeping']);
  });

  it('disposes the rest when one entry throws, then throws', () => {
    const scope = new Scope();
    let later = false;
    scope.onDispose(() => (later = true));
    scope.onDispose(() => {
      throw new Error('boom');
    });
    assert.throws(() => scope.dispose(), /boom/);
    assert.equal(later, true);
  });

  it('onAnyDispose runs once, for the first of its scopes to go, and leaves the others', () => {
    const turn = new Scope();
    const agent = new Scope();
    let runs = 0;
    onAnyDispose([turn, undefined, agent], () => runs++);
    turn.dispose();
    agent.dispose();
    assert.equal(runs, 1);
    const gone = new Scope();
    gone.dispose();
    let atOnce = 0;
    onAnyDispose([new Scope(), gone], () => atOnce++);
    assert.equal(atOnce, 1, 'a scope already disposed runs it at once');
    const answered = onAnyDispose([turn, new Scope()], () => runs++);
    answered.dispose();
    assert.equal(runs, 2, 'turn was already disposed: ran at registration');
  });
});
