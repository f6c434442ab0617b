import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { computeHunks, undoHunks } from '../../../src/extension/review/model/actionHunks';
import {
  isProposal,
  keepProblem,
  keptSummary,
  keptText,
  matchingHunks,
  partialMessage,
  proposalOf,
  reappliedMessage,
  rejectedOf,
  rejectMessage,
  type FileNow,
  type ProposedEdit,
} from '../../../src/extension/partialApproval/model/hunkChoice';
import { AgentNotes, notesPreamble } from '../../../src/extension/partialApproval/model/agentNotes';

const text = (now: string): FileNow => ({ kind: 'text', text: now });
const BEFORE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';
const AFTER = 'ONE\ntwo\nthree\nfour\nFIVE\nsix\nseven\neight\nnine\nTEN\n';

function edit(before: string, after: string): ProposedEdit {
  const p = proposalOf([{ path: '/w/a.txt', oldText: null, newText: after }], text(before));
  assert.ok(p.ok, p.ok ? '' : p.reason);
  return p.edit;
}

describe('partial approval: the proposal', () => {
  it('compares an overwrite sent as oldText null with the file as it is (Claude Write)', () => {
    const e = edit(BEFORE, AFTER);
    assert.equal(e.hunks.length, 3);
    assert.equal(e.before, BEFORE);
    assert.equal(e.after, AFTER);
    assert.equal(e.created, false);
  });

  it('lays a snippet (Claude Edit) over the file where it occurs once', () => {
    const p = proposalOf([{ path: '/w/a.txt', oldText: 'four\nfive\n', newText: 'four\nFIVE\n' }], text(BEFORE));
    assert.ok(p.ok);
    assert.equal(p.edit.after, BEFORE.replace('five', 'FIVE'));
    assert.equal(p.edit.hunks.length, 1);
  });

  it('refuses a snippet that is not once in the file, several files, no diff, and a file that is not text', () => {
    assert.equal(proposalOf([{ path: '/w/a', oldText: 'absent', newText: 'x' }], text(BEFORE)).ok, false);
    assert.equal(proposalOf([{ path: '/w/a', oldText: 'e', newText: 'x' }], text(BEFORE)).ok, false);
    assert.equal(proposalOf([{ path: '/w/a', newText: 'x' }, { path: '/w/b', newText: 'y' }], text(BEFORE)).ok, false);
    assert.equal(proposalOf([], text(BEFORE)).ok, false);
    const binary = proposalOf([{ path: '/w/a', oldText: null, newText: 'x' }], { kind: 'unreadable', reason: 'a binary file' });
    assert.equal(binary.ok, false);
    assert.match(binary.ok ? '' : binary.reason, /binary file: allow or reject it whole/);
    assert.equal(proposalOf([{ path: '/w/a', oldText: null, newText: BEFORE }], text(BEFORE)).ok, false, 'no change, no hunks');
  });

  it('reads `\\n` proposed for a CRLF file in the file\'s endings, and knows the text as sent', () => {
    const crlf = (t: string) => t.replace(/\n/g, '\r\n');
    const p = proposalOf([{ path: '/w/a.txt', oldText: null, newText: AFTER }], text(crlf(BEFORE)));
    assert.ok(p.ok);
    assert.equal(p.edit.hunks.length, 3);
    assert.equal(p.edit.after, crlf(AFTER));
    assert.equal(p.edit.sent, AFTER);
    assert.ok(isProposal(p.edit, AFTER) && isProposal(p.edit, crlf(AFTER)) && !isProposal(p.edit, BEFORE));
    assert.equal(keptText(p.edit, [0, 2]), crlf('ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nTEN\n'));
    const snippet = proposalOf([{ path: '/w/a.txt', oldText: 'four\nfive\n', newText: 'four\nFIVE\n' }], text(crlf(BEFORE)));
    assert.ok(snippet.ok);
    assert.equal(snippet.edit.after, crlf(BEFORE.replace('five', 'FIVE')));
  });

  it('makes a new file one hunk', () => {
    const p = proposalOf([{ path: '/w/new.txt', oldText: null, newText: 'a\nb\n' }], { kind: 'absent' });
    assert.ok(p.ok);
    assert.equal(p.edit.created, true);
    assert.equal(p.edit.hunks.length, 1);
  });
});

describe('partial approval: the kept text', () => {
  it('keeps hunks 1 and 3 of 3: the file before with those two applied', () => {
    const e = edit(BEFORE, AFTER);
    assert.equal(keptText(e, [0, 2]), 'ONE\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nTEN\n');
    assert.equal(keptText(e, [0, 1, 2]), AFTER);
    assert.equal(keptText(e, []), BEFORE);
  });

  it('keeps CRLF, a missing final newline and mixed endings byte for byte', () => {
    const before = 'a\r\nb\r\nc\nd\r\ne\r\nf';
    const after = 'A\r\nb\r\nc\nD\r\ne\r\nF\r\ng';
    const e = edit(before, after);
    assert.equal(e.hunks.length, 3);
    assert.equal(keptText(e, [0, 2]), 'A\r\nb\r\nc\nd\r\ne\r\nF\r\ng');
    assert.equal(keptText(e, [1]), 'a\r\nb\r\nc\nD\r\ne\r\nf');
  });

  it('is the same as undoing the rejected hunks of the whole write, for any choice (insertions and deletions too)', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let round = 0; round < 300; round++) {
      const base = Array.from({ length: 1 + rnd(12) }, (_, i) => `l${i}${rnd(3) === 0 ? '\r\n' : '\n'}`);
      if (rnd(4) === 0) base[base.length - 1] = base[base.length - 1].replace(/\r?\n$/, '');
      const next: string[] = [];
      for (const line of base) {
        const op = rnd(5);
        if (op === 0) continue;
        if (op === 1) next.push(`new${rnd(99)}\n`);
        next.push(op === 2 ? line.toUpperCase() : line);
        if (op === 3) next.push(`ins${rnd(99)}\n`);
      }
      const before = base.join('');
      const after = next.join('');
      const hunks = computeHunks(before, after);
      if (hunks.length === 0) continue;
      const e: ProposedEdit = { path: '/w/x', before, after, sent: after, created: false, hunks };
      const keep = hunks.map((_, i) => i).filter(() => rnd(2) === 0);
      const rejected = rejectedOf(keep, hunks.length);
      assert.equal(keptText(e, keep), undoHunks(after, after, hunks, rejected).text, JSON.stringify({ before, after, keep }));
    }
  });
});

describe('partial approval: choices, the write and the message', () => {
  it('says what is wrong with a choice of hunks', () => {
    assert.equal(keepProblem([0, 2], 3), undefined);
    assert.match(keepProblem([3], 3) ?? '', /hunk 3 does not exist \(the edit has 3 hunks, numbered 0 to 2\)/);
    assert.match(keepProblem([1.5], 3) ?? '', /does not exist/);
    assert.deepEqual(rejectedOf([0, 2], 3), [1]);
    assert.equal(keptSummary(2, 3), '2 of 3 hunks kept');
  });

  it('finds the proposed hunks among the logged ones, even when an earlier write of the turn changed other lines', () => {
    const e = edit(BEFORE, AFTER);
    assert.deepEqual(matchingHunks(e.hunks, e.hunks, [1]), [1]);
    // The log's change started before an earlier edit of "two": one more hunk, the others the same.
    const logged = computeHunks(BEFORE.replace('three', 'drei'), AFTER);
    assert.equal(logged.length, 4);
    assert.deepEqual(matchingHunks(e.hunks, logged, [1]), [2]);
    // The agent wrote something else: hunk 2 is not there.
    assert.equal(matchingHunks(e.hunks, computeHunks(BEFORE, AFTER.replace('FIVE', 'Five')), [1]), undefined);
  });

  it('tells the agent the file, the kept and reverted hunks with their text, and not to re-apply them', () => {
    const message = partialMessage('src/a.txt', edit(BEFORE, AFTER), [0, 2]);
    assert.match(message, /your edit of src\/a\.txt only in part: 2 of 3 hunks kept/);
    assert.match(message, /Kept hunks: 1, 3\. Reverted hunks \(the file does not contain them\): 2\./);
    assert.match(message, /Hunk 2 \(lines 5–5 of your version\):\n```diff\n-five\n\+FIVE\n```/);
    assert.doesNotMatch(message, /Hunk 1 \(/);
    assert.match(message, /Do not re-apply the reverted parts unless asked/);
    assert.equal(rejectMessage('Edit a.txt', '  not\nthis  way '), 'The user rejected "Edit a.txt". Their reason: not this way');
  });

  it('tells the agent which reverted hunks the user re-applied, with their text', () => {
    const message = reappliedMessage('src/a.txt', computeHunks(BEFORE, AFTER), [1]);
    assert.match(message, /^The user re-applied from Review part of your edit of src\/a\.txt that had been reverted/);
    assert.match(message, /Hunk 2 \(lines 5–5 of your version\):\n```diff\n-five\n\+FIVE\n```/);
    assert.doesNotMatch(message, /Hunk [13] \(/);
  });

  it('holds notes for the next prompt until taken', () => {
    const notes = new AgentNotes();
    notes.add('s1', 'first');
    notes.add('s1', 'second');
    assert.deepEqual(notes.pending('s1'), ['first', 'second']);
    assert.deepEqual(notes.take('s1'), ['first', 'second']);
    assert.deepEqual(notes.take('s1'), []);
    notes.add('s1', 'kept');
    notes.add('s2', 'closed');
    notes.forgetAllBut(new Set(['s1']));
    assert.deepEqual([notes.pending('s1'), notes.pending('s2')], [['kept'], []]);
    assert.match(notesPreamble(['first']), /what happened to your last edit request\]\n\nfirst\n\n\[End of note/);
  });
});

describe('partial approval: the recorded turn of Claude’s adapter', () => {
  const permissions = readFileSync(join(__dirname, '../../fixtures/acp/claude-agent-acp-turn.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: { method?: string; params?: { toolCall: { title: string; content?: { type: string; path: string; oldText?: string | null; newText: string }[] } } } }).msg)
    .filter((m) => m.method === 'session/request_permission')
    .map((m) => m.params?.toolCall);
  const diffsOf = (title: string) => (permissions.find((t) => t?.title === title)?.content ?? []).filter((c) => c.type === 'diff');

  it('reads its Edit (a snippet) over the file that holds it, and its Write (oldText null) over an existing file', () => {
    const edit = diffsOf('Edit hello.txt');
    assert.equal(edit.length, 1);
    const snippet = edit[0].oldText ?? '';
    const around = `first line\n${snippet}\nlast line\n`;
    const p = proposalOf(edit, text(around));
    assert.ok(p.ok, p.ok ? '' : p.reason);
    assert.equal(p.edit.after, `first line\n${edit[0].newText}\nlast line\n`);
    const write = diffsOf('Write notes/new.txt');
    assert.equal(write[0].oldText, null);
    const over = proposalOf(write, text('an older text\nof two lines\n'));
    assert.ok(over.ok);
    assert.equal(over.edit.after, write[0].newText);
    assert.equal(proposalOf(diffsOf("printf 'a\\nb\\n'; exit 3"), text('x')).ok, false, 'a command has no diff');
  });
});
