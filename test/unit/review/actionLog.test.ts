import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { diffArrays } from 'diff';
import { computeHunks, decodeText, editLengthExceeds, encodeText, placeHunks, splitLines, undoHunks } from '../../../src/extension/review/model/actionHunks';
import { ActionLog, sameSnapshot, summaryText, turnChangeLabels, viewOf, type Snapshot } from '../../../src/extension/review/model/actionLog';
import { editTargets, reportedBefore } from '../../../src/extension/review/model/editTargets';
import { mergedPerHunk, planRestore, planUndo, restoreFiles } from '../../../src/extension/review/model/undoPlan';
import { toolReportOf } from '../../../src/extension/session/model/agentMeta';
import { bytes, loggedChange } from './loggedChange';

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`): string =>
  Array.from({ length: n }, (_, i) => `${f(i + 1)}\n`).join('');

describe('action log: hunks of an agent change', () => {
  const before = lines(20);
  const after = before.replace('line 2\n', 'line two\n').replace('line 10\n', 'line ten\nline ten and a half\n').replace('line 18\n', '');

  it('splits lines keeping each terminator, CRLF and a missing final newline included', () => {
    assert.deepEqual(splitLines('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
    assert.deepEqual(splitLines(''), []);
  });

  it('finds three hunks of whole lines, in file order', () => {
    const hunks = computeHunks(before, after);
    assert.equal(hunks.length, 3);
    assert.deepEqual(hunks[0], { oldStart: 1, oldLines: ['line 2\n'], newStart: 1, newLines: ['line two\n'] });
    assert.deepEqual(hunks[1].newLines, ['line ten\n', 'line ten and a half\n']);
    assert.deepEqual(hunks[2], { oldStart: 17, oldLines: ['line 18\n'], newStart: 18, newLines: [] });
  });

  it('undoes one hunk of three and leaves the others as the agent wrote them', () => {
    const hunks = computeHunks(before, after);
    const result = undoHunks(after, after, hunks, [1]);
    assert.deepEqual(result.undone, [1]);
    assert.equal(result.text, after.replace('line ten\nline ten and a half\n', 'line 10\n'));
  });

  it('undoing every hunk gives back the text before, exactly', () => {
    const hunks = computeHunks(before, after);
    assert.equal(undoHunks(after, after, hunks, [0, 1, 2]).text, before);
    // In any order, one at a time.
    let text = after;
    for (const i of [2, 0, 1]) text = undoHunks(after, text, hunks, [i]).text;
    assert.equal(text, before);
  });

  it('keeps the user\'s later edits elsewhere, and shifts the hunks below them', () => {
    const hunks = computeHunks(before, after);
    const current = 'my header\n' + after.replace('line 14\n', 'line 14 edited by me\n');
    const result = undoHunks(after, current, hunks, [0, 1, 2]);
    assert.deepEqual(result.conflicts, []);
    assert.equal(result.text, 'my header\n' + before.replace('line 14\n', 'line 14 edited by me\n'));
  });

  it('reports a hunk the user rewrote as a conflict and leaves it and the user\'s text alone', () => {
    const hunks = computeHunks(before, after);
    const current = after.replace('line ten and a half\n', 'my own line\n');
    const result = undoHunks(after, current, hunks, [0, 1, 2]);
    assert.deepEqual(result.conflicts, [1]);
    assert.deepEqual(result.undone, [0, 2]);
    assert.match(result.text, /line ten\nmy own line\n/);
    assert.match(result.text, /line 2\n/);
    assert.match(result.text, /line 18\n/);
  });

  it('a line typed into the middle of a hunk is a conflict; one typed next to it is not', () => {
    const hunks = computeHunks(before, after);
    const inside = after.replace('line ten\n', 'line ten\ntyped\n');
    assert.equal(placeHunks(after, inside, hunks)[1].ok, false);
    const next = after.replace('line 11\n', 'typed\nline 11\n');
    const place = placeHunks(after, next, hunks)[1];
    assert.ok(place.ok);
    assert.equal(undoHunks(after, next, hunks, [1]).text, next.replace('line ten\nline ten and a half\n', 'line 10\n'));
  });

  it('a user line typed where the agent deleted a line is a conflict', () => {
    const hunks = computeHunks(before, after);
    const current = after.replace('line 17\n', 'line 17\nmine\n');
    assert.deepEqual(undoHunks(after, current, hunks, [2]).conflicts, [2]);
  });

  it('restores CRLF lines byte for byte', () => {
    const crlfBefore = 'a\r\nb\r\nc\r\nd\r\ne\r\n';
    const crlfAfter = 'a\r\nB\r\nc\r\nd\r\nE\r\nf\r\n';
    const hunks = computeHunks(crlfBefore, crlfAfter);
    assert.equal(hunks.length, 2);
    assert.equal(undoHunks(crlfAfter, crlfAfter, hunks, [0]).text, 'a\r\nb\r\nc\r\nd\r\nE\r\nf\r\n');
    assert.equal(undoHunks(crlfAfter, crlfAfter, hunks, [0, 1]).text, crlfBefore);
  });

  it('restores a missing final newline, and an appended line after it', () => {
    const hunks = computeHunks('a\nb', 'a\nb\nc\n');
    assert.equal(undoHunks('a\nb\nc\n', 'a\nb\nc\n', hunks, [0]).text, 'a\nb');
  });

  it('takes a whole-file rewrite as one hunk, without a diff that would stall the editor', () => {
    const before = lines(10_000, (i) => `a ${i}`);
    const after = 'same head\n' + lines(10_000, (i) => `b ${i}`);
    const started = Date.now();
    const hunks = computeHunks('same head\n' + before, after);
    assert.ok(Date.now() - started < 2000, `took ${Date.now() - started} ms`);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0].oldStart, 1);
    assert.equal(undoHunks(after, after, hunks, [0]).text, 'same head\n' + before);
  });

  it('undoes a rewrite of 200,000 lines (a 10 MB file) exactly, where splicing its lines in as arguments overflowed the stack', () => {
    const before = lines(200_000, (i) => `const value${i} = someCall(argument${i % 97}, "padding to fifty chars");`);
    const after = before.replaceAll('const', 'let');
    const hunks = computeHunks(before, after);
    assert.equal(hunks.length, 1);
    assert.equal(hunks[0].oldLines.length, 200_000);
    const result = undoHunks(after, after, hunks, [0]);
    assert.deepEqual(result.undone, [0]);
    assert.ok(result.text === before, 'the undone text differs from the text before the agent');
  });

  it('keeps the final newline fix and the user text between undone hunks when building from slices', () => {
    const before = 'a\nb\nc\nd\ne';
    const after = 'A\nb\nc\nD\ne\nf\n';
    const hunks = computeHunks(before, after);
    assert.equal(hunks.length, 2);
    assert.equal(undoHunks(after, after, hunks, [1, 0]).text, before);
    assert.equal(undoHunks(after, after, hunks, [1]).text, 'A\nb\nc\nd\ne');
    assert.equal(undoHunks(after, 'A\nb\nc\nD\ne\nf\ng\n', hunks, [1]).text, 'A\nb\nc\nd\ne\ng\n');
  });

  it('tells a diff over its bound exactly when the diff library gives up on it', () => {
    let seed = 7;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 2000; round++) {
      const a = Array.from({ length: random(30) }, () => String(random(4)));
      const b = Array.from({ length: random(30) }, () => String(random(4)));
      const max = 1 + random(25);
      assert.equal(editLengthExceeds(a, b, max), diffArrays(a, b, { maxEditLength: max }) === undefined, JSON.stringify({ a, b, max }));
    }
  });

  it('decodes a BOM and refuses binary or non-UTF-8 bytes instead of guessing', () => {
    const withBom = encodeText('x\r\n', true);
    assert.deepEqual([...withBom.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.deepEqual(decodeText(withBom), { ok: true, text: 'x\r\n', bom: true });
    assert.deepEqual(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a])), { ok: false, reason: 'not UTF-8 text' });
    assert.deepEqual(decodeText(new Uint8Array([0x61, 0, 0x62])), { ok: false, reason: 'a binary file' });
  });
});

describe('action log: recording turns', () => {
  it('keeps the first before of a file in a turn, and hunks from what the agent left', () => {
    const log = new ActionLog();
    log.beginTurn('s', 0);
    const first = log.record('s', '/w/a.txt', 'tool', bytes('one\ntwo\n'), 'call1');
    log.record('s', '/w/a.txt', 'tool', bytes('ONE\ntwo\n'), 'call2');
    assert.equal(log.changes('s').length, 1);
    assert.deepEqual(first.toolCallIds, ['call1', 'call2']);
    log.setAfter(first, bytes('ONE\ntwo\nthree\n'));
    const view = viewOf(first);
    assert.equal(view.hunks.length, 2);
    assert.equal(view.added, 2);
    assert.equal(view.removed, 1);
    assert.equal(view.status, 'pending');
    log.beginTurn('s', 2);
    const second = log.record('s', '/w/a.txt', 'tool', bytes('ONE\ntwo\nthree\n'));
    log.setAfter(second, bytes('ONE\n'));
    assert.deepEqual(log.turns('s'), [0, 2]);
    assert.equal(log.latestOf('s', '/w/a.txt'), second);
    assert.equal(summaryText(log.summary('s', 0)), '1 file, +2 −1');
  });

  it('finds the running turn\'s change of a file across turns, removals and thousands of files', () => {
    const log = new ActionLog();
    log.beginTurn('s', 0);
    const first = log.record('s', '/w/a', 'tool', bytes('a\n'), 'c1');
    for (let i = 0; i < 5000; i++) log.record('s', `/w/f${i}`, 'tool', { kind: 'absent' });
    assert.equal(log.inTurn('s', '/w/a'), first);
    assert.equal(log.record('s', '/w/a', 'tool', bytes('later\n'), 'c2'), first, 'the first record of the turn keeps its before');
    assert.deepEqual(first.toolCallIds, ['c1', 'c2']);
    log.beginTurn('s', 2);
    assert.equal(log.inTurn('s', '/w/a'), undefined, 'a new turn starts afresh');
    const second = log.record('s', '/w/a', 'fs', bytes('later\n'));
    assert.notEqual(second, first);
    log.remove('s', second);
    assert.equal(log.inTurn('s', '/w/a'), undefined, 'a removed change is gone');
    log.beginTurn('s', 0);
    assert.equal(log.inTurn('s', '/w/a'), first, 'back in the first turn (as after a reload), its change is found');
  });

  it('labels every turn from one pass: its summary, empty when only a later turn changed files, none after the last', () => {
    const log = new ActionLog();
    log.beginTurn('s', 0);
    log.setAfter(log.record('s', '/w/a', 'tool', bytes('a\n')), bytes('a\nb\n'));
    log.beginTurn('s', 4);
    log.setAfter(log.record('s', '/w/a', 'tool', bytes('a\nb\n')), bytes('x\n'));
    log.setAfter(log.record('s', '/w/c', 'tool', { kind: 'absent' }), bytes('c\n'));
    const views = log.changes('s').map((c) => viewOf(c));
    const label = turnChangeLabels(views);
    assert.equal(label(0), summaryText(log.summary('s', 0)));
    assert.equal(label(0), '1 file, +1 −0');
    assert.equal(label(2), '', 'a turn that changed nothing, with a later one that did: restorable, no summary');
    assert.equal(label(4), '2 files, +2 −2');
    assert.equal(label(6), undefined, 'nothing to restore after the last turn that changed files');
    assert.equal(turnChangeLabels([])(0), undefined);
  });

  it('drops a change that changed nothing (a refused write)', () => {
    const log = new ActionLog();
    log.beginTurn('s', 0);
    const change = log.record('s', '/w/a.txt', 'fs', bytes('same\n'));
    log.setAfter(change, bytes('same\n'));
    assert.deepEqual(log.changes('s'), []);
  });

  it('says why a change cannot be undone rather than guessing', () => {
    const log = new ActionLog();
    log.beginTurn('s', 0);
    const change = log.record('s', '/w/a.txt', 'watcher', { kind: 'unknown', reason: 'changed by a command; its earlier text was not captured' });
    log.setAfter(change, bytes('x\n'));
    const view = viewOf(change);
    assert.equal(view.status, 'no-undo');
    assert.match(view.reason ?? '', /^no undo: changed by a command/);
    assert.equal(planUndo(change, { kind: 'text', text: 'x\n' }).refused, view.reason);
  });
});

describe('action log: undo plans', () => {
  const change = loggedChange;

  it('restores the exact bytes (BOM and CRLF) once every hunk is undone', () => {
    const c = change(bytes('a\r\nb\r\n', true), bytes('a\r\nB\r\n', true));
    const plan = planUndo(c, { kind: 'text', text: 'a\r\nB\r\n' });
    assert.equal(plan.action.type, 'restore');
    assert.deepEqual(plan.action.type === 'restore' && [...plan.action.bytes], [...encodeText('a\r\nb\r\n', true)]);
  });

  it('edits the text for a partial undo', () => {
    const c = change(bytes('a\nb\nc\nd\n'), bytes('A\nb\nc\nD\n'));
    const plan = planUndo(c, { kind: 'text', text: 'A\nb\nc\nD\n' }, [1]);
    assert.deepEqual(plan.action, { type: 'edit', text: 'A\nb\nc\nd\n' });
  });

  it('deletes a created file only as the agent left it', () => {
    const c = change({ kind: 'absent' }, bytes('new\n'));
    assert.deepEqual(planUndo(c, { kind: 'text', text: 'new\n' }).action, { type: 'delete' });
    const edited = planUndo(c, { kind: 'text', text: 'new\nmine\n' });
    assert.deepEqual(edited.action, { type: 'none' });
    assert.deepEqual(edited.conflicts, [0]);
  });

  it('recreates a deleted file with its bytes', () => {
    const c = change(bytes('gone\r\n', true), { kind: 'absent' });
    const plan = planUndo(c, { kind: 'absent' });
    assert.equal(plan.action.type, 'create');
    assert.deepEqual(plan.action.type === 'create' && [...plan.action.bytes], [...encodeText('gone\r\n', true)]);
  });

  it('refuses a file that is not UTF-8 text rather than rewriting it', () => {
    const latin1: Snapshot = { kind: 'bytes', bytes: new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) };
    const c = change(latin1, bytes('cafe\n'));
    const plan = planUndo(c, { kind: 'text', text: 'cafe\n' });
    assert.deepEqual(plan.action, { type: 'none' });
    assert.match(plan.refused ?? '', /not UTF-8 text/);
  });

  it('plans a checkpoint restore newest first, over that turn and the later ones', () => {
    const log = new ActionLog();
    log.beginTurn('s', 0);
    log.setAfter(log.record('s', '/w/a', 'tool', bytes('0\n')), bytes('1\n'));
    log.beginTurn('s', 1);
    log.setAfter(log.record('s', '/w/b', 'tool', { kind: 'absent' }), bytes('b\n'));
    log.setAfter(log.record('s', '/w/a', 'tool', bytes('1\n')), bytes('2\n'));
    log.beginTurn('s', 3);
    log.setAfter(log.record('s', '/w/a', 'fs', bytes('2\n')), bytes('3\n'));
    const plan = planRestore(log.changes('s'), 1);
    assert.deepEqual(plan.map((c) => [c.turn, c.path]), [[3, '/w/a'], [1, '/w/a'], [1, '/w/b']]);
    assert.deepEqual(restoreFiles(plan), ['/w/b', '/w/a']);
    // Walking back: 3 → 2 → 1, each step a whole restore.
    let text = '3\n';
    for (const c of plan.filter((c) => c.path === '/w/a')) {
      const step = planUndo(c, { kind: 'text', text });
      assert.equal(step.action.type, 'restore');
      text = step.action.type === 'restore' ? step.action.text : text;
    }
    assert.equal(text, '1\n');
  });
});

describe('action log: a restore over files the user changed since', () => {
  it('merges per hunk the files only the agent reported changing, and leaves whole those a command changed', () => {
    const log = new ActionLog();
    log.beginTurn('s', 0);
    log.setAfter(log.record('s', '/w/fs', 'fs', bytes('0\n')), bytes('1\n'));
    log.setAfter(log.record('s', '/w/tool', 'tool', bytes('0\n')), bytes('1\n'));
    log.setAfter(log.record('s', '/w/cmd', 'watcher', bytes('0\n')), bytes('1\n'));
    log.setAfter(log.record('s', '/w/mixed', 'tool', bytes('0\n')), bytes('1\n'));
    log.beginTurn('s', 1);
    log.setAfter(log.record('s', '/w/mixed', 'watcher', bytes('1\n')), bytes('2\n'));
    log.setAfter(log.record('s', '/w/nobody', 'fs', bytes('0\n')), bytes('1\n'));
    log.setAfter(log.record('s', '/w/unknown', 'fs', { kind: 'unknown', reason: 'not read' }), bytes('1\n'));
    const plan = planRestore(log.changes('s'), 0);
    const merged = mergedPerHunk(plan, ['/w/fs', '/w/tool', '/w/cmd', '/w/mixed', '/w/unknown', '/w/elsewhere'], (c) => c.before.kind !== 'unknown');
    assert.deepEqual([...merged].sort(), ['/w/fs', '/w/tool'], 'not a command’s, not one without undo, not one the user did not change');
  });
});

describe('action log: what a tool call edits, and its before text when the write beat us', () => {
  const fixture = fs
    .readFileSync(path.join(__dirname, '../../fixtures/acp/claude-agent-acp-turn.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { msg: { params?: { update?: Record<string, unknown> } } });
  const updatesOf = (id: string) => fixture.map((l) => l.msg.params?.update).filter((u): u is Record<string, unknown> => u?.toolCallId === id);

  it('names the files of Claude\'s Edit and Write from their locations and diffs, not of its Read', () => {
    const edit = updatesOf('toolu_stub_02_edit')[1] as { locations: { path: string }[] };
    assert.deepEqual(editTargets({ kind: 'edit', content: [], locations: edit.locations }), ['/home/user/project/hello.txt']);
    const read = updatesOf('toolu_stub_01_read')[1] as { locations: { path: string }[] };
    assert.deepEqual(editTargets({ kind: 'read', content: [], locations: read.locations }), []);
  });

  it('reverts Claude\'s applied hunk, or reads its originalFile, to get the text before', () => {
    const applied = updatesOf('toolu_stub_02_edit').find((u) => (u._meta as { claudeCode?: { toolResponse?: unknown } })?.claudeCode?.toolResponse);
    assert.ok(applied);
    const content = applied.content as { type: 'diff'; path: string; oldText: string; newText: string }[];
    assert.deepEqual(reportedBefore('/home/user/project/hello.txt', content, toolReportOf(applied._meta)?.original, 'hello ACP\n'), {
      kind: 'text',
      text: 'hello world\n',
      how: "the agent's copy of the original",
    });
    assert.deepEqual(reportedBefore('/home/user/project/hello.txt', content, undefined, 'hello ACP\n'), {
      kind: 'text',
      text: 'hello world\n',
      how: "the agent's hunks reverted",
    });
  });

  it('does not take a Write\'s oldText: null as "created" without the agent saying so', () => {
    const diff = [{ type: 'diff' as const, path: '/w/n.txt', oldText: null, newText: 'x\n' }];
    assert.equal(reportedBefore('/w/n.txt', diff, undefined, 'x\n').kind, 'unknown');
    assert.equal(reportedBefore('/w/n.txt', diff, { path: '/w/n.txt', text: null }, 'x\n').kind, 'absent');
    assert.equal(reportedBefore('/w/n.txt', diff, { path: '/w/other.txt', text: null }, 'x\n').kind, 'unknown');
  });

  it('gives up on hunks that no longer stand in the file', () => {
    const diff = [{ type: 'diff' as const, path: '/w/a', oldText: 'old line', newText: 'new line' }];
    assert.equal(reportedBefore('/w/a', diff, undefined, 'something else\n').kind, 'unknown');
  });
});

describe('action log: snapshot equality', () => {
  it('compares bytes, wherever they sit in their buffers', () => {
    const backing = new Uint8Array([0, 1, 2, 3, 9]);
    const view: Snapshot = { kind: 'bytes', bytes: backing.subarray(1, 4) };
    assert.equal(sameSnapshot(view, { kind: 'bytes', bytes: new Uint8Array([1, 2, 3]) }), true);
    assert.equal(sameSnapshot(view, { kind: 'bytes', bytes: new Uint8Array([1, 2, 4]) }), false);
    assert.equal(sameSnapshot(view, { kind: 'bytes', bytes: new Uint8Array([1, 2, 3, 9]) }), false);
  });

  it('a 10 MB file that differs only in its last byte is a change', () => {
    const a = new Uint8Array(10 * 1024 * 1024).fill(97);
    const b = a.slice();
    assert.equal(sameSnapshot({ kind: 'bytes', bytes: a }, { kind: 'bytes', bytes: b }), true);
    b[b.length - 1] = 98;
    assert.equal(sameSnapshot({ kind: 'bytes', bytes: a }, { kind: 'bytes', bytes: b }), false);
  });

  it('two absent files are the same; an unknown snapshot is never the same as anything', () => {
    assert.equal(sameSnapshot({ kind: 'absent' }, { kind: 'absent' }), true);
    assert.equal(sameSnapshot({ kind: 'unknown', reason: 'x' }, { kind: 'unknown', reason: 'x' }), false);
    assert.equal(sameSnapshot({ kind: 'absent' }, bytes('')), false);
  });
});
