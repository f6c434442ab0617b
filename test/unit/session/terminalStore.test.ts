import * as assert from 'node:assert/strict';
import type { TerminalMeta } from '../../../src/protocol/terminalMeta';
import { DisplayTerminalStore } from '../../../src/extension/session/model/terminalStore';

/** Applies `meta`; returns the ids the store reported changed, in order, each once. */
function changedBy(store: DisplayTerminalStore, meta: TerminalMeta, toolCallId: string): string[] {
  const changed = new Set<string>();
  store.apply(meta, toolCallId, (terminalId, callId) => {
    assert.equal(callId, toolCallId);
    changed.add(terminalId);
  });
  return [...changed];
}

describe('DisplayTerminalStore (_meta terminal convention)', () => {
  it('follows a terminal from terminal_info through output to exit', () => {
    const store = new DisplayTerminalStore();
    assert.deepEqual(changedBy(store, { terminal_info: { terminal_id: 'T', cwd: '/p' } }, 'call'), ['T']);
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'a\n' } }, 'call');
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'b\n' } }, 'call');
    changedBy(store, { terminal_exit: { terminal_id: 'T', exit_code: 3, signal: null } }, 'call');
    const terminal = store.get('T')!;
    assert.equal(terminal.output.text, 'a\nb\n', 'output is appended, not replaced');
    assert.equal(terminal.cwd, '/p');
    assert.equal(terminal.toolCallId, 'call');
    assert.deepEqual(terminal.exit, { exitCode: 3, signal: null });
    assert.equal(terminal.revision, 4);
  });

  it('creates the terminal when output arrives before terminal_info', () => {
    const store = new DisplayTerminalStore();
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'early ' } }, 'call');
    assert.equal(store.get('T')!.announced, false);
    assert.equal(store.get('T')!.cwd, undefined);
    changedBy(store, { terminal_info: { terminal_id: 'T', cwd: '/work' } }, 'call');
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'late' } }, 'call');
    const terminal = store.get('T')!;
    assert.equal(terminal.output.text, 'early late', 'nothing of the early output is lost');
    assert.equal(terminal.announced, true);
    assert.equal(terminal.cwd, '/work');
    assert.equal(store.all().length, 1);
  });

  it('records an exit that arrives first, and a kill by signal', () => {
    const store = new DisplayTerminalStore();
    changedBy(store, { terminal_exit: { terminal_id: 'K', exit_code: null, signal: 'SIGTERM' } }, 'call');
    assert.deepEqual(store.get('K')!.exit, { exitCode: null, signal: 'SIGTERM' });
    assert.equal(store.get('K')!.output.text, '');
  });

  it('applies info, output and exit carried by one message in that order', () => {
    const store = new DisplayTerminalStore();
    const changed = changedBy(
      store,
      {
        terminal_info: { terminal_id: 'T' },
        terminal_output: { terminal_id: 'T', data: 'all at once' },
        terminal_exit: { terminal_id: 'T', exit_code: 0, signal: null },
      },
      'call',
    );
    assert.deepEqual(changed, ['T']);
    assert.equal(store.get('T')!.output.text, 'all at once');
    assert.deepEqual(store.get('T')!.exit, { exitCode: 0, signal: null });
  });

  it('the call that announces a terminal owns it', () => {
    const store = new DisplayTerminalStore();
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'x' } }, 'other');
    assert.equal(store.get('T')!.toolCallId, 'other');
    changedBy(store, { terminal_info: { terminal_id: 'T' } }, 'owner');
    assert.equal(store.get('T')!.toolCallId, 'owner');
  });

  it('lets a renderer read only what is new since its offset', () => {
    const store = new DisplayTerminalStore();
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'one\n' } }, 'c');
    const terminal = store.get('T')!;
    const first = terminal.readFrom(0);
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'two\n' } }, 'c');
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'three\n' } }, 'c');
    const next = terminal.readFrom(first.end);
    assert.equal(first.text, 'one\n');
    assert.equal(next.text, 'two\nthree\n');
    assert.equal(next.end, terminal.output.length);
    assert.equal(terminal.readFrom(next.end).text, '');
  });

  it('caps memory by dropping the oldest output; offsets stay valid', () => {
    const store = new DisplayTerminalStore({ outputLimit: 10 });
    changedBy(store, { terminal_output: { terminal_id: 'T', data: '0123456789' } }, 'c');
    const terminal = store.get('T')!;
    const seen = terminal.readFrom(0).end;
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'abcdef' } }, 'c');
    assert.equal(terminal.output.text, '6789abcdef');
    assert.equal(terminal.output.dropped, 6);
    assert.equal(terminal.output.length, 16);
    assert.deepEqual(terminal.readFrom(seen), { text: 'abcdef', start: 10, end: 16 });
    // A reader far behind gets what is left and learns where it starts.
    assert.deepEqual(terminal.readFrom(2), { text: '6789abcdef', start: 6, end: 16 });
  });

  it('gives a renderer what is new in the parts the output came in, unjoined, the same text and offsets as readFrom', () => {
    const store = new DisplayTerminalStore({ outputLimit: 5000 });
    const pieces = ['a'.repeat(1500), 'b'.repeat(1500), 'c'.repeat(1500), 'd'.repeat(1500)];
    for (const data of pieces) changedBy(store, { terminal_output: { terminal_id: 'T', data } }, 'c');
    const output = store.get('T')!.output;
    // From a dropped offset (the first 1,000 went), inside a part, and at the end.
    for (const offset of [0, 2000, 3100, 6000]) {
      const parts = output.piecesFrom(offset);
      const joined = output.readFrom(offset);
      assert.deepEqual({ text: parts.pieces.join(''), start: parts.start, end: parts.end }, joined, `from ${offset}`);
    }
    const newest = output.piecesFrom(3100);
    assert.deepEqual(
      newest.pieces.map((piece) => piece.length),
      [1400, 1500],
      'each part as it was appended (the first cut where the reader starts): nothing joined into one string',
    );
    assert.equal(newest.pieces[1], pieces[3]);
  });

  it('never keeps half of an emoji when dropping', () => {
    const store = new DisplayTerminalStore({ outputLimit: 3 });
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'a😀b' } }, 'c');
    assert.equal(store.get('T')!.output.text, '😀b');
    changedBy(store, { terminal_output: { terminal_id: 'T', data: 'c' } }, 'c');
    assert.equal(store.get('T')!.output.text, 'bc');
  });

  it('ignores empty meta and reports no change for empty output of a known terminal', () => {
    const store = new DisplayTerminalStore();
    assert.deepEqual(changedBy(store, {}, 'c'), []);
    changedBy(store, { terminal_info: { terminal_id: 'T' } }, 'c');
    assert.deepEqual(changedBy(store, { terminal_output: { terminal_id: 'T', data: '' } }, 'c'), []);
    assert.equal(store.get('T')!.revision, 1);
  });

  it('reports a terminal first seen through empty output as changed (a new card), and output of several terminals in one message', () => {
    const store = new DisplayTerminalStore();
    assert.deepEqual(changedBy(store, { terminal_output: { terminal_id: 'E', data: '' } }, 'c'), ['E']);
    assert.deepEqual(changedBy(store, { terminal_output: { terminal_id: 'E', data: '' } }, 'c'), []);
    assert.deepEqual(
      changedBy(store, { terminal_info: { terminal_id: 'A' }, terminal_output: { terminal_id: 'B', data: 'x' }, terminal_exit: { terminal_id: 'A', exit_code: 0, signal: null } }, 'c'),
      ['A', 'B'],
    );
  });
});
