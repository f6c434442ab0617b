import * as assert from 'node:assert/strict';
import { HEAD_BYTES, LineGuard } from '../../../src/agent/stdio/lineGuard';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (pieces: Uint8Array[]): string => pieces.map((p) => new TextDecoder().decode(p)).join('');

/** A guard with a small limit, recording the oversized lines it saw. */
function guard(limit: number, replacement?: string) {
  const oversized: { head: string; bytes: number }[] = [];
  const lines = new LineGuard(limit, (head, size) => {
    oversized.push({ head: new TextDecoder().decode(head), bytes: size });
    return replacement === undefined ? undefined : bytes(replacement);
  });
  return { lines, oversized };
}

/** Feeds `input` to the guard in chunks of `size` bytes; returns what went on. */
function run(lines: LineGuard, input: string, size: number): string {
  const all = bytes(input);
  const out: Uint8Array[] = [];
  for (let at = 0; at < all.length; at += size) out.push(...lines.push(all.subarray(at, at + size)));
  out.push(...lines.end());
  return text(out);
}

describe('the stdin guard against messages over the limit', () => {
  it('passes lines within the limit unchanged, however the chunks cut them', () => {
    const input = '{"id":1}\n\n{"id":2,"x":"0123456789"}\r\n{"id":3}\n';
    for (const size of [1, 3, 7, 64]) {
      const { lines, oversized } = guard(25);
      assert.equal(run(lines, input, size), input, `chunks of ${size}`);
      assert.deepEqual(oversized, []);
    }
  });

  it('passes a line exactly at the limit, its CR not counted, as the SDK reader counts', () => {
    for (const size of [1, 5, 100]) {
      const { lines, oversized } = guard(10);
      assert.equal(run(lines, '0123456789\n0123456789\r\n', size), '0123456789\n0123456789\r\n');
      assert.deepEqual(oversized, []);
    }
  });

  it('drops a line over the limit with its size and head, and goes on with the next line', () => {
    for (const size of [1, 4, 1000]) {
      const { lines, oversized } = guard(10);
      const out = run(lines, '{"id":1}\n{"id":2,"pad":"xxxxxxxxxxxxxxxx"}\n{"id":3}\n', size);
      assert.equal(out, '{"id":1}\n{"id":3}\n', `chunks of ${size}`);
      assert.deepEqual(oversized.map((o) => o.bytes), [33]);
      // Below HEAD_BYTES, the head is what was held when the line passed the limit.
      const head = oversized[0]?.head ?? '';
      assert.ok(head.length > 10 && '{"id":2,"pad":"xxxxxxxxxxxxxxxx"}'.startsWith(head), head);
    }
  });

  it('counts one byte over the limit as over, CR or not', () => {
    const { lines, oversized } = guard(10);
    assert.equal(run(lines, '0123456789A\n0123456789A\r\nok\n', 3), 'ok\n');
    assert.deepEqual(oversized.map((o) => o.bytes), [11, 12]);
  });

  it('puts what the decision returns in the line’s place', () => {
    const { lines } = guard(4, '{"error":1}\n');
    assert.equal(run(lines, 'ab\nxxxxxxxx\ncd\n', 2), 'ab\n{"error":1}\ncd\n');
  });

  it('keeps only the head of a long line, and reports one unterminated at the end', () => {
    const { lines, oversized } = guard(HEAD_BYTES * 2);
    const line = `{"id":5,"pad":"${'x'.repeat(HEAD_BYTES * 4)}"}`;
    assert.equal(run(lines, line, 4096), '');
    assert.equal(oversized.length, 1);
    assert.equal(oversized[0]?.bytes, line.length);
    assert.equal(oversized[0]?.head, line.slice(0, HEAD_BYTES));
  });

  it('hands on an unterminated last line within the limit at the end', () => {
    const { lines } = guard(10);
    assert.equal(run(lines, '{"a":1}\n{"b":2}', 3), '{"a":1}\n{"b":2}\n');
  });

  it('hands on the lines wholly inside a chunk as one uncopied run of it', () => {
    const { lines } = guard(100);
    const chunk = bytes('{"a":1}\n{"b":2}\n{"c":');
    const [run1, ...rest] = lines.push(chunk);
    assert.equal(rest.length, 0);
    assert.equal(run1?.buffer, chunk.buffer);
    assert.equal(text([run1!]), '{"a":1}\n{"b":2}\n');
    assert.equal(text(lines.push(bytes('3}\n'))), '{"c":3}\n');
  });
});
