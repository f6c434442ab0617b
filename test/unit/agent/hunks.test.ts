/** Applied-change diffs: contextual hunks, one per replace_all site, and the whole-file fallbacks. */
import * as assert from 'node:assert/strict';
import { DEFAULT_DIFF_LIMITS, overwriteDiff, replacementDiff } from '../../../src/agent/hunks';
import { planReplacement } from '../../../src/agent/textEdit';

const numbered = (count: number, mark: (i: number) => string | undefined = () => undefined): string =>
  Array.from({ length: count }, (_, i) => mark(i + 1) ?? `line ${i + 1}`).join('\n') + '\n';

function edit(before: string, oldString: string, newString: string, replaceAll = false) {
  const plan = planReplacement(before, oldString, newString, replaceAll);
  assert.ok(plan.ok, plan.ok ? '' : plan.error);
  return replacementDiff('/f', before, plan.after, plan.sites);
}

describe('hunks', () => {
  it('shows an edit as its whole changed lines with 3 lines of context, located at the first', () => {
    const result = edit(numbered(20), 'line 10', 'line ten');
    assert.deepEqual(result, {
      kind: 'hunks',
      diffs: [{ path: '/f', oldText: 'line 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13', newText: 'line 7\nline 8\nline 9\nline ten\nline 11\nline 12\nline 13' }],
      locations: [{ path: '/f', line: 7 }],
    });
  });

  it('gives a multi-site replace_all one hunk per site', () => {
    const before = numbered(40, (i) => (i % 10 === 5 ? `line ${i} TODO` : undefined));
    const result = edit(before, 'TODO', 'DONE', true);
    assert.equal(result.kind, 'hunks');
    if (result.kind !== 'hunks') return;
    assert.equal(result.diffs.length, 4);
    assert.deepEqual(result.locations.map((l) => l.line), [2, 12, 22, 32]);
    assert.equal(result.diffs[2]?.oldText, 'line 22\nline 23\nline 24\nline 25 TODO\nline 26\nline 27\nline 28');
    assert.equal(result.diffs[2]?.newText, 'line 22\nline 23\nline 24\nline 25 DONE\nline 26\nline 27\nline 28');
  });

  it('lets sites whose context overlaps share a hunk, as a unified diff does', () => {
    const result = edit(numbered(20, (i) => (i === 5 || i === 9 ? `x${i}` : undefined)), 'x', 'y', true);
    assert.equal(result.kind === 'hunks' ? result.diffs.length : 0, 1);
  });

  it('handles sites at the very start and end of a file, and one-line files', () => {
    assert.deepEqual(edit('hello world\n', 'world', 'ACP'), {
      kind: 'hunks',
      diffs: [{ path: '/f', oldText: 'hello world', newText: 'hello ACP' }],
      locations: [{ path: '/f', line: 1 }],
    });
    const end = edit('a\nb\nc', 'c', 'C');
    assert.deepEqual(end.kind === 'hunks' ? end.diffs : undefined, [{ path: '/f', oldText: 'a\nb\nc', newText: 'a\nb\nC' }]);
  });

  it('shows a deleted line as removed, with its context', () => {
    const result = edit(numbered(10), 'line 5\n', '');
    assert.deepEqual(result.kind === 'hunks' ? result.diffs : undefined, [
      { path: '/f', oldText: 'line 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8', newText: 'line 2\nline 3\nline 4\nline 6\nline 7\nline 8' },
    ]);
  });

  it('diffs an overwrite between its common prefix and suffix, one hunk per changed area', () => {
    const before = numbered(50);
    const after = before.replace('line 5\n', 'line five\n').replace('line 40\n', 'line 40\nline 40b\n');
    const result = overwriteDiff('/f', before, after);
    assert.equal(result.kind, 'hunks');
    assert.deepEqual(result.kind === 'hunks' ? result.locations.map((l) => l.line) : [], [2, 38]);
  });

  it('shows a create, or an unchanged overwrite, as a whole-file diff', () => {
    assert.deepEqual(overwriteDiff('/f', null, 'new'), { kind: 'whole-file', reason: 'create', oldText: null });
    assert.deepEqual(overwriteDiff('/f', 'same\n', 'same\n'), { kind: 'whole-file', reason: 'unchanged', oldText: null });
    assert.deepEqual(replacementDiff('/f', null, 'x', []), { kind: 'whole-file', reason: 'create', oldText: null });
  });

  it('falls back to a whole-file diff above the size bound', () => {
    const limits = { ...DEFAULT_DIFF_LIMITS, maxWindowChars: 100 };
    const result = overwriteDiff('/f', numbered(20), numbered(20, () => 'other'), limits);
    assert.deepEqual(result, { kind: 'whole-file', reason: 'too-large', oldText: numbered(20) });
  });

  it('falls back to a whole-file diff above the edit-distance bound (the diff package\'s maxEditLength)', () => {
    const limits = { ...DEFAULT_DIFF_LIMITS, maxEditLength: 5 };
    const result = overwriteDiff('/f', numbered(20), numbered(20, (i) => `changed ${i}`), limits);
    assert.equal(result.kind, 'whole-file');
    assert.equal(result.kind === 'whole-file' ? result.reason : '', 'edit-distance');
  });

  it('drops the old text of a huge whole-file diff, to stay inside the message limit', () => {
    const limits = { ...DEFAULT_DIFF_LIMITS, maxWindowChars: 10, maxWholeFileChars: 50 };
    assert.deepEqual(overwriteDiff('/f', numbered(20), numbered(20, () => 'x'), limits), { kind: 'whole-file', reason: 'too-large', oldText: null });
  });

  it('does not stall on a 10 MB file: a one-line change is a hunk, a rewrite is whole-file', () => {
    const big = numbered(200_000, (i) => `line ${i} lorem ipsum dolor sit amet, consectetur adipiscing`);
    const started = Date.now();
    const oneLine = edit(big, 'line 100000 lorem', 'line 100000 LOREM');
    assert.deepEqual(oneLine.kind === 'hunks' ? oneLine.locations : undefined, [{ path: '/f', line: 99997 }]);
    const rewrite = overwriteDiff('/f', big, big.replace(/lorem/g, 'LOREM'));
    assert.equal(rewrite.kind, 'whole-file');
    // A generous bound: this is about never stalling, not about speed.
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
  });
});
