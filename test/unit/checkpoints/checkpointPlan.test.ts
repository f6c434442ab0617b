import * as assert from 'node:assert/strict';
import { checkpointsToPrune, planWorkspaceRestore, restoreIntervals, type CheckpointRecord } from '../../../src/extension/checkpoints/model/checkpointPlan';
import { addPathspecs, excludeLines, gitEnv, parseNameStatus } from '../../../src/extension/checkpoints/model/shadowGit';

const rec = (id: string, turn: number, phase: 'begin' | 'end', time = turn * 10 + (phase === 'end' ? 5 : 0), sessionId = 's'): CheckpointRecord => ({ id, sessionId, turn, phase, time, commits: {}, tooLarge: {} });

describe('checkpoints: the plan', () => {
  it('tells the turns\' intervals from the user\'s', () => {
    const records = [rec('b0', 0, 'begin'), rec('e0', 0, 'end'), rec('b1', 1, 'begin'), rec('e1', 1, 'end'), rec('x', 1, 'begin', 1, 'other')];
    assert.deepEqual(restoreIntervals(records, 's', 0), {
      base: 'b0',
      agent: [{ from: 'b0', to: 'e0' }, { from: 'b1', to: 'e1' }],
      user: [{ from: 'e0', to: 'b1' }, { from: 'e1', to: 'now' }],
    });
    // A turn still running, and a turn whose end is missing.
    assert.deepEqual(restoreIntervals([rec('b0', 0, 'begin'), rec('b1', 1, 'begin')], 's', 0), { base: 'b0', agent: [{ from: 'b0', to: 'b1' }, { from: 'b1', to: 'now' }], user: [] });
    assert.equal(restoreIntervals(records, 's', 5), undefined);
  });

  it('restores what the turns changed, leaves the user\'s files and conflicts alone', () => {
    const m = (o: Record<string, 'added' | 'modified' | 'deleted'>) => new Map(Object.entries(o));
    const plan = planWorkspaceRestore({
      sinceBase: m({ 'a.txt': 'modified', 'new.txt': 'added', 'gone/x': 'deleted', 'mine.txt': 'modified', 'both.txt': 'modified', 'log.txt': 'modified', 'big.bin': 'modified' }),
      agent: [m({ 'a.txt': 'modified', 'new.txt': 'added', 'gone/x': 'deleted', 'both.txt': 'modified', 'log.txt': 'modified', 'big.bin': 'modified' })],
      user: [m({ 'mine.txt': 'modified', 'both.txt': 'modified' })],
      skip: new Set(['log.txt']),
      tooLargeAtBase: new Set(['big.bin']),
    });
    assert.deepEqual(plan.steps, [
      { path: 'a.txt', action: 'write' },
      { path: 'gone/x', action: 'write' },
      { path: 'new.txt', action: 'delete' },
    ]);
    assert.deepEqual(plan.conflicts, ['both.txt']);
    assert.deepEqual(plan.userChanged, ['both.txt', 'mine.txt']);
  });

  it('prunes by age, count and size, keeping each session\'s newest', () => {
    const day = 24 * 3600_000;
    const records = [rec('old', 0, 'begin', 0), rec('mid', 1, 'begin', 20 * day), rec('new', 2, 'begin', 30 * day), rec('lone', 0, 'begin', 0, 'other')];
    assert.deepEqual([...checkpointsToPrune(records, 31 * day, { maxAgeMs: 14 * day, maxCount: 100, maxBytes: 1e9 }, 0)], ['old']);
    assert.deepEqual([...checkpointsToPrune(records, 31 * day, { maxAgeMs: 100 * day, maxCount: 2, maxBytes: 1e9 }, 0)].sort(), ['mid', 'old']);
    assert.deepEqual([...checkpointsToPrune(records, 31 * day, { maxAgeMs: 100 * day, maxCount: 100, maxBytes: 10 }, 11)], ['old']);
  });

  it('drives git without the user\'s configuration', () => {
    const env = gitEnv({ PATH: '/bin', GIT_DIR: '/home/u/.git', git_index_file: 'x', HOME: '/home/u' }, '/store/home');
    assert.equal(env.GIT_DIR, undefined);
    assert.equal(env.git_index_file, undefined);
    assert.equal(env.HOME, '/store/home');
    assert.equal(env.GIT_CONFIG_NOSYSTEM, '1');
    assert.deepEqual(excludeLines({ '**/.git': true, '**/*.{log,tmp}': true, 'build': true, 'off': false, 'when': { when: '$(basename).ts' } }), ['**/.git', '**/*.log', '**/*.tmp', '/build']);
    assert.equal(addPathspecs(['a b', 'c']), '.\0:(exclude,literal)a b\0:(exclude,literal)c');
    assert.deepEqual(Object.fromEntries(parseNameStatus('M\0a\0A\0b c\0D\0d\0')), { a: 'modified', 'b c': 'added', d: 'deleted' });
  });
});
