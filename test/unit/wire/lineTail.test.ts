import * as assert from 'node:assert/strict';
import { LineTail } from '../../../src/extension/wire/lineTail';

function tail(maxLineChars = 50, maxLines = 3) {
  const logged: string[] = [];
  const t = new LineTail({ maxLineChars, maxLines, onLine: (l) => logged.push(l) });
  return { t, logged };
}

describe('line tail (agent stderr)', () => {
  it('splits on \\n and \\r\\n (also across chunks) and keeps the last lines', () => {
    const { t, logged } = tail();
    t.push('one\r');
    t.push('\ntwo\n\nthree\r\nfo');
    t.push('ur\n');
    assert.deepEqual(logged, ['one', 'two', 'three', 'four']);
    assert.deepEqual(t.lines, ['two', 'three', 'four']);
  });

  it('treats \\r as a redraw: a progress bar keeps only its last state, and none is logged until the line ends', () => {
    const { t, logged } = tail();
    for (let i = 0; i <= 100; i++) t.push(`\r${i}% [${'='.repeat(i % 10)}]`);
    assert.deepEqual(logged, []);
    t.push('\ndone\n');
    assert.deepEqual(logged, ['100% []', 'done']);
  });

  it('redraws on a \\r inside a chunk and across chunks, and keeps a line ended by \\r\\r\\n', () => {
    const { t, logged } = tail();
    t.push('old\rnew\n');
    t.push('abc\r');
    t.push('def\n');
    t.push('x\r\r\n');
    assert.deepEqual(logged, ['new', 'def', 'x']);
  });

  it('bounds a line without newlines by characters, whatever its size, and says how much was cut', () => {
    const { t, logged } = tail(10);
    const chunk = 'y'.repeat(64 * 1024);
    for (let i = 0; i < 160; i++) t.push(chunk); // 10 MiB
    t.end();
    assert.equal(logged.length, 1);
    assert.equal(logged[0], `${'y'.repeat(10)}… (${160 * chunk.length - 10} more characters)`);
    assert.ok(t.lines.join('').length < 100);
  });

  it('flushes the last unterminated line at the end', () => {
    const { t } = tail();
    t.push('fatal: no key');
    t.end();
    assert.deepEqual(t.lines, ['fatal: no key']);
  });
});
