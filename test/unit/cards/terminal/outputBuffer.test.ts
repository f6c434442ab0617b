import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import { OutputBuffer } from '../../../../src/extension/cards/terminal/model/outputBuffer';
import { utf8Length } from '../../../../src/extension/base/textChunks';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

describe('OutputBuffer (client terminal output, outputByteLimit)', () => {
  it('keeps everything when there is no limit', () => {
    const buffer = new OutputBuffer();
    buffer.append('hello ');
    buffer.append('world\n');
    assert.equal(buffer.text, 'hello world\n');
    assert.equal(buffer.truncated, false);
    assert.equal(buffer.byteLength, 12);
  });

  it('keeps the newest output when over the limit, and says it truncated', () => {
    const buffer = new OutputBuffer(10);
    buffer.append('line one\n');
    buffer.append('line two\n');
    assert.equal(buffer.text, '\nline two\n');
    assert.equal(buffer.byteLength, 10);
    assert.equal(buffer.truncated, true);
  });

  it('is exactly at the limit without truncating', () => {
    const buffer = new OutputBuffer(5);
    buffer.append('abcde');
    assert.equal(buffer.text, 'abcde');
    assert.equal(buffer.truncated, false);
  });

  // é = 2 bytes, 漢 = 3 bytes, 😀 = 4 bytes (a surrogate pair: 2 code units).
  const cases: { name: string; input: string[]; limit: number; expected: string }[] = [
    { name: 'drops a whole é rather than half of it', input: ['aéb'], limit: 2, expected: 'b' },
    { name: 'keeps é when the limit allows it exactly', input: ['aéb'], limit: 3, expected: 'éb' },
    { name: 'drops a whole 漢 (3 bytes) when 1 byte too many', input: ['漢字'], limit: 5, expected: '字' },
    { name: 'keeps both 漢字 at exactly 6 bytes', input: ['漢字'], limit: 6, expected: '漢字' },
    { name: 'never splits an emoji (surrogate pair)', input: ['😀😀'], limit: 7, expected: '😀' },
    { name: 'keeps the emoji at exactly 4 bytes', input: ['x😀'], limit: 4, expected: '😀' },
    { name: 'drops an emoji that alone exceeds the limit', input: ['😀'], limit: 3, expected: '' },
    { name: 'a limit of 0 keeps nothing', input: ['abc'], limit: 0, expected: '' },
    { name: 'mixed text across appends', input: ['é', '漢', '😀', 'a'], limit: 8, expected: '漢😀a' },
    { name: 'mixed text, one byte less', input: ['é', '漢', '😀', 'a'], limit: 7, expected: '😀a' },
    { name: 'an emoji split across two appends is one character', input: ['a\ud83d', '\ude00b'], limit: 5, expected: '😀b' },
    { name: 'an emoji split across two appends is dropped whole', input: ['a\ud83d', '\ude00b'], limit: 4, expected: 'b' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const buffer = new OutputBuffer(c.limit);
      for (const part of c.input) buffer.append(part);
      assert.equal(buffer.text, c.expected);
      assert.equal(buffer.byteLength, bytes(c.expected));
      assert.ok(buffer.byteLength <= c.limit);
      assert.equal(buffer.truncated, c.expected !== c.input.join(''));
    });
  }

  it('stays within the limit and keeps the exact tail under many small multi-byte appends', () => {
    const limit = 1000;
    const buffer = new OutputBuffer(limit);
    const alphabet = ['a', 'é', '漢', '😀', '\n'];
    let all = '';
    for (let i = 0; i < 5000; i++) {
      const piece = alphabet[i % alphabet.length].repeat((i % 3) + 1);
      buffer.append(piece);
      all += piece;
      assert.ok(buffer.byteLength <= limit);
    }
    const text = buffer.text;
    assert.ok(all.endsWith(text), 'the kept text is the newest output');
    assert.equal(buffer.byteLength, bytes(text));
    // The next older character would not have fitted.
    const previous = [...all.slice(0, all.length - text.length)].pop() ?? '';
    assert.ok(bytes(previous) + bytes(text) > limit);
  });

  it('is linear on many tiny appends (no quadratic copying)', () => {
    const buffer = new OutputBuffer(64 * 1024);
    const started = Date.now();
    for (let i = 0; i < 200_000; i++) buffer.append('ab漢\n');
    assert.ok(buffer.byteLength <= 64 * 1024);
    assert.ok(buffer.text.endsWith('ab漢\n'));
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
  });

  it('answers a flood\'s ASCII tail with the same text, kept outside V8\'s heap (no large object per terminal/output)', () => {
    const limit = 1024 * 1024;
    const buffer = new OutputBuffer(limit);
    const line = (n: number) => `${String(n).padStart(10, '0')} ${'y'.repeat(116)}\n`;
    const lines: string[] = [];
    for (let n = 0; n < 3 * 8192; n++) lines.push(line(n));
    const encoder = new TextEncoder();
    for (let i = 0; i < lines.length; i += 512) buffer.appendBytes(encoder.encode(lines.slice(i, i + 512).join('')));
    const expected = lines.slice(-8192).join('');
    const largeObjects = () => v8.getHeapSpaceStatistics().reduce((sum, space) => (space.space_name.includes('large_object') ? sum + space.space_used_size : sum), 0);
    const before = largeObjects();
    const text = buffer.text;
    const grown = largeObjects() - before;
    assert.equal(text, expected);
    assert.equal(buffer.truncated, true);
    assert.equal(buffer.byteLength, limit);
    assert.ok(grown < limit / 2, `the heap's large objects grew ${grown} bytes reading a 1 MiB tail`);
    // Not ASCII: decoded as UTF-8 as before.
    buffer.appendBytes(encoder.encode('é漢😀\n'));
    assert.ok(buffer.text.endsWith(`${line(3 * 8192 - 1)}é漢😀\n`));
    assert.equal(Buffer.byteLength(buffer.text), limit);
  });

  it('reads what is new since an offset, even after the front was dropped', () => {
    const buffer = new OutputBuffer(6);
    buffer.append('abc');
    const first = buffer.readFrom(0);
    assert.deepEqual(first, { text: 'abc', start: 0, end: 3 });
    buffer.append('defgh');
    const next = buffer.readFrom(first.end);
    // 'abc' + 'defgh' = 8 bytes, limit 6: 'ab' dropped; from offset 3 on nothing was lost.
    assert.deepEqual(next, { text: 'defgh', start: 3, end: 8 });
    buffer.append('ijklmnop');
    // The reader at 8 missed what was dropped: the slice says where it really starts.
    assert.deepEqual(buffer.readFrom(8), { text: 'klmnop', start: 10, end: 16 });
  });

  it('treats an invalid limit sensibly', () => {
    const unlimited = new OutputBuffer(Number.NaN);
    unlimited.append('x'.repeat(100));
    assert.equal(unlimited.byteLength, 100);
    const negative = new OutputBuffer(-5);
    negative.append('x');
    assert.equal(negative.text, '');
  });

  it('counts UTF-8 bytes like Node does', () => {
    for (const text of ['', 'a', 'é', '漢', '😀', 'aé漢😀\n', '\ud83d', '\ude00x']) {
      assert.equal(utf8Length(text), bytes(text), JSON.stringify(text));
    }
  });
});
