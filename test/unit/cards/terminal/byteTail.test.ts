import * as assert from 'node:assert/strict';
import { ByteTail, TextTail, Utf8Carry } from '../../../../src/extension/cards/terminal/model/byteTail';
import { OutputBuffer } from '../../../../src/extension/cards/terminal/model/outputBuffer';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('ByteTail (the newest bytes of a stream, undecoded)', () => {
  it('keeps the newest bytes, dropping the oldest, and copies what it is given', () => {
    const tail = new ByteTail(5);
    const first = utf8('abc');
    tail.append(first);
    tail.append(utf8('defg'));
    assert.equal(decode(tail.readFrom(0).bytes), 'cdefg');
    assert.deepEqual([tail.size, tail.dropped, tail.length], [5, 2, 7]);
    tail.append(utf8('hijklmn'));
    assert.equal(decode(tail.readFrom(0).bytes), 'jklmn');
    assert.equal(first[0], 0x61, 'what it was given is never changed');
    first[0] = 0x7a;
    assert.equal(decode(tail.readFrom(0).bytes), 'jklmn', 'nor read again: a caller may reuse its buffer');
  });

  it('keeps exactly the tail of what was appended, whatever the chunk sizes (the ring wraps and grows)', () => {
    for (const limit of [1, 7, 100, 4096, 10_000]) {
      const tail = new ByteTail(limit);
      const all: number[] = [];
      let seed = limit;
      for (let i = 0; i < 300; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const chunk = new Uint8Array(seed % (i % 50 === 0 ? 20_000 : 300)).map((_, j) => 0x20 + ((i + j) % 90));
        tail.append(chunk);
        all.push(...chunk);
        if (i % 37 === 0 || i === 299) {
          const expected = all.slice(Math.max(0, all.length - limit));
          assert.deepEqual([...tail.readFrom(0).bytes], expected, `limit ${limit}, after ${i + 1} chunks`);
          assert.equal(tail.length, all.length);
          assert.equal(tail.dropped, all.length - expected.length);
          const from = Math.max(0, all.length - 3);
          assert.deepEqual([...tail.readFrom(from).bytes], all.slice(Math.max(from, tail.dropped)));
        }
      }
    }
  });

  it('reads from a character when the limit cut inside one, and says where it starts', () => {
    const tail = new ByteTail(5);
    tail.append(utf8('a漢字')); // 1 + 3 + 3 bytes: the cut leaves the last byte of 漢
    const slice = tail.readFrom(0);
    assert.equal(decode(slice.bytes), '字');
    assert.deepEqual([slice.start, slice.end], [4, 7]);
    const emoji = new ByteTail(3);
    emoji.append(utf8('😀'));
    assert.equal(emoji.readFrom(0).bytes.length, 0, 'three bytes of a four-byte character are no character');
  });

  it('reads what is new since an offset, even after the front was dropped', () => {
    const tail = new ByteTail(6);
    tail.append(utf8('abc'));
    assert.equal(tail.readFrom(0).end, 3);
    tail.append(utf8('defgh'));
    assert.deepEqual({ ...tail.readFrom(3), bytes: decode(tail.readFrom(3).bytes) }, { bytes: 'defgh', start: 3, end: 8 });
    tail.append(utf8('ijklmnop'));
    const missed = tail.readFrom(8);
    assert.deepEqual([decode(missed.bytes), missed.start], ['klmnop', 10]);
  });

  it('reads only the newest bytes when asked, from a character on', () => {
    const tail = new ByteTail(100);
    tail.append(utf8('abc漢字xy')); // 3 + 6 + 2 = 11 bytes
    const newest = tail.readFrom(0, 5);
    assert.deepEqual([decode(newest.bytes), newest.start, newest.end], ['字xy', 6, 11]);
    const cut = tail.readFrom(0, 4); // starts inside 字: its other bytes are skipped, not decoded as U+FFFD
    assert.deepEqual([decode(cut.bytes), cut.start], ['xy', 9]);
    assert.equal(decode(tail.readFrom(10, 5).bytes), 'y', 'the offset asked still bounds it');
  });

  it('stays bounded and linear under a flood of chunks', () => {
    const tail = new ByteTail(1024 * 1024);
    const chunk = new Uint8Array(65536).fill(0x79);
    for (let i = 0; i < 1600; i++) tail.append(chunk); // 100 MiB
    assert.equal(tail.size, 1024 * 1024);
    assert.equal(tail.length, 1600 * 65536);
    assert.equal(tail.readFrom(0).bytes.length, 1024 * 1024);
  });
});

describe('TextTail (what a terminal panel was given, kept as UTF-8)', () => {
  it('reads back the newest text written, whole characters only, within its byte limit', () => {
    const tail = new TextTail(10);
    assert.equal(tail.text, '');
    tail.append('abc');
    tail.append('dé');
    assert.equal(tail.text, 'abcdé');
    tail.append('漢字!');
    // 'abcdé漢字!' is 13 bytes: the newest 10.
    assert.equal(tail.text, 'dé漢字!');
    tail.append('😀');
    // The newest 10 bytes start inside '漢' (3 bytes): the rest of it is skipped.
    assert.equal(tail.text, '字!😀');
  });

  it('keeps surrogate pairs whole across its encoding pieces, and the tail exact for big writes', () => {
    const tail = new TextTail(300_000);
    // Longer than one 64 KB encoding piece, with 4-byte characters straddling the piece boundaries.
    const big = 'x'.repeat(65_535) + '😀'.repeat(30_000) + 'end\r\n';
    tail.append(big);
    assert.equal(tail.text, big, 'under the limit: all of it');
    assert.ok(!tail.text.includes('\ufffd'), 'no character broken');
    const more = 'y'.repeat(200_000);
    tail.append(more);
    const kept = tail.text;
    assert.ok(kept.endsWith(more) && kept.length < big.length + more.length);
    assert.equal(new TextEncoder().encode(kept).length <= 300_000, true);
    assert.ok(big.endsWith(kept.slice(0, kept.length - more.length)), 'what is kept of the first write is its tail');
  });

  it('reads the same text again until something is written (a poller gets it without decoding again)', () => {
    const tail = new TextTail(1024);
    tail.append('abc');
    const first = tail.text;
    assert.equal(tail.text, first);
    tail.append('d');
    assert.equal(tail.text, 'abcd');
  });
});

describe('Utf8Carry (whole characters per chunk)', () => {
  it('holds back a character cut between chunks and gives it whole with the next one', () => {
    const bytes = utf8('a漢😀b');
    const carry = new Utf8Carry();
    const parts: string[] = [];
    // Every split point, one byte at a time at worst.
    for (let i = 0; i < bytes.length; i++) {
      const out = carry.push(bytes.subarray(i, i + 1));
      if (out.length) parts.push(decode(out));
    }
    assert.equal(parts.join(''), 'a漢😀b');
    assert.deepEqual(parts, ['a', '漢', '😀', 'b'], 'each piece is whole characters');
    assert.equal(carry.end().length, 0);
  });

  it('gives back an unfinished character at the end, and never holds invalid bytes', () => {
    const carry = new Utf8Carry();
    assert.equal(carry.push(utf8('x漢').subarray(0, 3)).length, 1);
    assert.deepEqual([...carry.end()], [0xe6, 0xbc]);
    assert.equal(carry.push(new Uint8Array([0x61, 0xff])).length, 2, 'an invalid byte completes nothing');
  });
});

describe('OutputBuffer fed bytes (a process\'s output)', () => {
  it('keeps the newest bytes up to the limit, from a character on, and says it truncated', () => {
    const buffer = new OutputBuffer(5);
    buffer.appendBytes(utf8('a漢'));
    buffer.appendBytes(utf8('字'));
    assert.equal(buffer.text, '字');
    assert.equal(buffer.byteLength, 3);
    assert.equal(buffer.truncated, true);
  });

  it('keeps invalid bytes (as U+FFFD) within the limit measured on what it returns', () => {
    const buffer = new OutputBuffer(4);
    buffer.appendBytes(new Uint8Array([0x61, 0xff, 0x62, 0x63]));
    // "a\ufffdbc" is 6 bytes of UTF-8: the oldest characters go until it fits.
    assert.equal(buffer.text, 'bc');
    assert.ok(buffer.byteLength <= 4);
    assert.equal(buffer.truncated, true);
  });

  it('keeps the exact tail of a flood of lines within the limit', () => {
    const buffer = new OutputBuffer(1000);
    let all = '';
    for (let i = 0; i < 2000; i++) {
      const line = `${i} é漢😀\n`;
      all += line;
      buffer.appendBytes(utf8(line));
    }
    assert.ok(all.endsWith(buffer.text));
    assert.ok(buffer.byteLength <= 1000 && buffer.byteLength > 990);
  });
});
