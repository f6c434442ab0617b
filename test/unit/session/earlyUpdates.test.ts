import * as assert from 'node:assert/strict';
import { EarlyUpdates } from '../../../src/extension/session/model/earlyUpdates';

function gate(maxHeld = 10) {
  const logged: string[] = [];
  const early = new EarlyUpdates<string>({ maxHeld, log: (m) => logged.push(m) });
  return { early, logged };
}

describe('updates for a session that has no record', () => {
  it('drops updates for an id nobody asked for, logging once per id', () => {
    const { early, logged } = gate();
    early.receive('ghost', 'a');
    early.receive('ghost', 'b');
    early.receive('other', 'c');
    assert.deepEqual(early.take('ghost'), []);
    assert.equal(logged.length, 2);
    assert.match(logged[0], /unknown session "ghost"/);
  });

  it('holds updates that arrive before session/new answers, in order, until the id is known', () => {
    const { early, logged } = gate();
    const done = early.beginCreate();
    early.receive('sess_1', 'commands');
    early.receive('sess_1', 'mode');
    assert.deepEqual(early.take('sess_1'), ['commands', 'mode']);
    done();
    assert.deepEqual(logged, []);
  });

  it('drops what is still held once no creation is in flight', () => {
    const { early, logged } = gate();
    const first = early.beginCreate();
    const second = early.beginCreate();
    early.receive('sess_x', 'u');
    first();
    assert.equal(logged.length, 0, 'another creation may still name it');
    second();
    assert.equal(logged.length, 1);
    assert.deepEqual(early.take('sess_x'), []);
  });

  it('bounds what it holds', () => {
    const { early, logged } = gate(3);
    const done = early.beginCreate();
    for (let i = 0; i < 100; i++) early.receive('sess_1', `u${i}`);
    assert.deepEqual(early.take('sess_1'), ['u0', 'u1', 'u2']);
    assert.equal(logged.length, 1);
    done();
  });
});

describe('updates for a subagent not announced yet', () => {
  it('keeps them (bounded) for the subagent_update that announces the child, in order', () => {
    const logged: string[] = [];
    const early = new EarlyUpdates<string>({ maxHeld: 10, maxOrphans: 3, log: (m) => logged.push(m) });
    early.receive('child', 'a');
    early.receive('child', 'b');
    assert.deepEqual(early.take('child'), ['a', 'b']);
    assert.deepEqual(logged, []);
  });

  it('drops the oldest id first when full, and says so', () => {
    const logged: string[] = [];
    const early = new EarlyUpdates<string>({ maxHeld: 10, maxOrphans: 3, log: (m) => logged.push(m) });
    early.receive('ghost', 'g1');
    early.receive('ghost', 'g2');
    early.receive('child', 'c1');
    early.receive('child', 'c2');
    assert.deepEqual(early.take('ghost'), []);
    assert.deepEqual(early.take('child'), ['c1', 'c2']);
    assert.match(logged[0] ?? '', /"ghost".*no subagent_update announced it/);
  });

  it("drops a closed session's late updates instead of keeping them for when it opens again", () => {
    const logged: string[] = [];
    const early = new EarlyUpdates<string>({ maxHeld: 10, maxOrphans: 5, log: (m) => logged.push(m) });
    early.receive('s1', 'before the close');
    early.closed('s1');
    early.receive('s1', 'the cancelled turn ends');
    assert.deepEqual(early.take('s1'), [], 'opened again: nothing of before lands first');
    assert.match(logged[0] ?? '', /"s1".*the session was closed/);
    // Open again, its own traffic is its own; a child not announced yet is still kept.
    early.receive('child', 'early');
    assert.deepEqual(early.take('child'), ['early']);
  });
});
