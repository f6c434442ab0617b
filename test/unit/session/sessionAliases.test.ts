import * as assert from 'node:assert/strict';
import { SessionAliases } from '../../../src/extension/session/model/sessionAliases';

describe('SessionAliases (sessions of two agents with the same id)', () => {
  const claude = { name: 'claude' };
  const codex = { name: 'codex' };

  it("keeps an agent's own id while nobody else has it", () => {
    const aliases = new SessionAliases<object>();
    assert.equal(aliases.assign(claude, 'sess_1', 'sess_1', () => false), 'sess_1');
    assert.equal(aliases.clientId(claude, 'sess_1'), 'sess_1');
  });

  it('suffixes the second agent\'s id, and translates only that agent\'s messages', () => {
    const aliases = new SessionAliases<object>();
    const taken = new Set(['sess_1', 'sess_1~2']);
    assert.equal(aliases.assign(codex, 'sess_1', 'sess_1', (id) => taken.has(id)), 'sess_1~3');
    assert.equal(aliases.clientId(codex, 'sess_1'), 'sess_1~3');
    assert.equal(aliases.clientId(claude, 'sess_1'), 'sess_1', 'the other agent keeps its id');
    assert.equal(aliases.clientId(codex, 'sess_2'), 'sess_2', 'other sessions of the same agent are not touched');
  });

  it("gives a restarted agent's reloaded session the id its dead predecessor had", () => {
    const aliases = new SessionAliases<object>();
    const restarted = { name: 'codex, restarted' };
    assert.equal(aliases.assign(restarted, 'sess_1', 'sess_1~2', () => false), 'sess_1~2');
    assert.equal(aliases.clientId(restarted, 'sess_1'), 'sess_1~2');
  });
});
