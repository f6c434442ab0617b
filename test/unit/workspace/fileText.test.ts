import * as assert from 'node:assert/strict';
import {
  applyChange,
  changedBytes,
  changedRange,
  decodeFileBytes,
  dominantEol,
  encodeFileText,
  plainBytes,
  unreadableMessage,
} from '../../../src/extension/workspace/model/fileText';

/** What a write of `content` over a file of `raw` text leaves on disk. */
const write = (raw: string, content: string) => applyChange(raw, changedRange(raw, content));

describe('file text: decoding what is on disk', () => {
  it('decodes UTF-8 and keeps the BOM aside, so encoding gives the same bytes back', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('héllo\r\n')]);
    const decoded = decodeFileBytes(bytes);
    assert.deepEqual(decoded, { ok: true, text: 'héllo\r\n', bom: true });
    assert.deepEqual(encodeFileText('héllo\r\n', true), bytes);
    assert.deepEqual(decodeFileBytes(new TextEncoder().encode('plain')), { ok: true, text: 'plain', bom: false });
  });

  it('refuses Latin-1 instead of decoding it with replacement characters', () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café\n" in Latin-1
    assert.deepEqual(decodeFileBytes(latin1), { ok: false, reason: 'not-utf8' });
    assert.match(unreadableMessage('not-utf8', 'src/a.txt', 'write'), /src\/a\.txt is not UTF-8 text.*not written/);
  });

  it('tells binary files and UTF-16 apart', () => {
    assert.deepEqual(decodeFileBytes(new Uint8Array([0x89, 0x50, 0x00, 0x01])), { ok: false, reason: 'binary' });
    assert.deepEqual(decodeFileBytes(new Uint8Array([0xff, 0xfe, 0x61, 0x00])), { ok: false, reason: 'utf16' });
    assert.match(unreadableMessage('binary', 'x.bin', 'read'), /x\.bin is a binary file; it cannot be read as text/);
  });
});

describe('file text: writing only what changed', () => {
  it('keeps mixed line endings of untouched lines byte for byte', () => {
    const raw = 'one\r\ntwo\nthree\r\nfour\n';
    assert.equal(write(raw, 'one\ntwo\nTHREE\nfour\n'), 'one\r\ntwo\nTHREE\r\nfour\n');
  });

  it('gives inserted lines the dominant line ending, and never splits a CRLF pair', () => {
    assert.equal(write('a\r\nb\r\nc\n', 'a\nb\nnew\nc\n'), 'a\r\nb\r\nnew\r\nc\n');
    assert.equal(write('a\r\nb', 'a\nb\n'), 'a\r\nb\r\n');
    assert.equal(write('a\r\n\r\nb', 'a\nb'), 'a\r\nb');
    assert.equal(write('x\r\ny', 'x\r\nz'), 'x\r\nz', 'CRLF content is compared normalized');
  });

  it('is a no-op when the text is the same up to line endings, and handles empty texts', () => {
    assert.equal(changedRange('a\r\nb\n', 'a\nb\n'), undefined);
    assert.equal(write('', 'new\ntext'), 'new\ntext');
    assert.equal(write('old\r\n', ''), '');
  });

  it('handles repeated characters where prefix and suffix overlap', () => {
    assert.equal(write('aa', 'aaa'), 'aaa');
    assert.equal(write('aaa', 'aa'), 'aa');
    assert.deepEqual(changedRange('abcabc', 'abc'), { start: 3, end: 6, text: '' });
  });

  it('picks the line ending most lines use', () => {
    assert.equal(dominantEol('a\r\nb\r\nc\n'), '\r\n');
    assert.equal(dominantEol('a\nb\r\nc\n'), '\n');
    assert.equal(dominantEol('no newline'), '\n');
  });

  it('matches a brute-force rewrite on random mixed texts', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const pieces = ['a', 'b', '\n', '\r\n', 'é', '😀'];
    const text = () => Array.from({ length: rand(12) }, () => pieces[rand(pieces.length)]).join('');
    for (let i = 0; i < 2000; i++) {
      const raw = text();
      const content = text();
      const out = write(raw, content);
      assert.equal(out.replace(/\r\n/g, '\n'), content.replace(/\r\n/g, '\n'), JSON.stringify({ raw, content, out }));
    }
  });
});

describe('file text: the changed range of a big file', () => {
  /** The plain definition: character by character. */
  const naive = (raw: string, content: string) => {
    const before = raw.replace(/\r\n/g, '\n');
    const after = content.replace(/\r\n/g, '\n');
    if (before === after) return undefined;
    const max = Math.min(before.length, after.length);
    let prefix = 0;
    while (prefix < max && before[prefix] === after[prefix]) prefix++;
    let suffix = 0;
    while (suffix < max - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
    // Raw offset of a normalized offset: count the CRLFs before it.
    const rawOf = (n: number) => {
      let r = 0;
      for (let i = 0; i < n; i++) r += raw[r] === '\r' && raw[r + 1] === '\n' ? 2 : 1;
      return r;
    };
    return { start: rawOf(prefix), end: rawOf(before.length - suffix) };
  };

  it('finds the same range as a character-by-character scan, across compare blocks and CRLF pairs', () => {
    let seed = 7;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const line = () => ['alpha', 'beta', 'x'.repeat(random(300))][random(3)] + ['\n', '\r\n', ''][random(3)];
    for (let round = 0; round < 60; round++) {
      const lines = Array.from({ length: 50 + random(400) }, line);
      const raw = lines.join('');
      const edited = [...lines];
      const at = random(edited.length);
      edited.splice(at, random(3), ...Array.from({ length: random(3) }, line));
      const content = edited.join('').replace(/\r\n/g, '\n');
      const change = changedRange(raw, content);
      const expected = naive(raw, content);
      assert.deepEqual(change && { start: change.start, end: change.end }, expected, `round ${round}`);
      assert.equal(write(raw, content).replace(/\r\n/g, '\n'), content);
    }
  });

  it('changes only the edited line of a 10 MB CRLF file, with a BOM-less byte-exact rest', () => {
    const lines = Array.from({ length: 150_000 }, (_, i) => `export const value${i} = ${i}; // some text\r\n`);
    const raw = lines.join('');
    const content = raw.replace('value75000 = 75000;', 'value75000 = 1;').replace(/\r\n/g, '\n');
    const change = changedRange(raw, content);
    assert.ok(change);
    assert.equal(raw.slice(change.start, change.end), '75000');
    assert.equal(change.text, '1');
    assert.equal(write(raw, content), raw.replace('value75000 = 75000;', 'value75000 = 1;'));
  });

  describe('changed bytes', () => {
    const joined = (parts: Uint8Array[]) => Buffer.concat(parts);
    /** What writing the whole text gives: the bytes the parts must add up to. */
    const expectWrite = (raw: string, content: string, bom: boolean) => {
      const bytes = encodeFileText(raw, bom);
      const change = changedRange(raw, content);
      assert.ok(change, 'a change');
      const parts = changedBytes(bytes, raw, bom, change);
      assert.ok(joined(parts).equals(encodeFileText(applyChange(raw, change), bom)), JSON.stringify({ raw: raw.slice(0, 80), content: content.slice(0, 80), bom }));
      return { parts, bytes };
    };

    it('are the file with the changed text replaced, byte for byte: BOM, CRLF, accents, CJK, emoji', () => {
      for (const bom of [false, true]) {
        expectWrite('héllo\r\nwörld\r\n漢字\r\n', 'héllo\nWÖRLD\n漢字\n', bom);
        expectWrite('a😀b\n', 'a😀c\n', bom);
        expectWrite('first\nlast', 'zeroth\nfirst\nlast', bom);
        expectWrite('first\nlast\n', 'first\n', bom);
        expectWrite('x', 'x\ny\nz', bom);
      }
    });

    it('never cut a surrogate pair: an edit of an emoji\'s low half alone replaces the whole emoji', () => {
      // 😀 and 😁 share their high surrogate: the common prefix ends inside the pair.
      const { parts } = expectWrite('say 😀 now\n', 'say 😁 now\n', false);
      assert.equal(new TextDecoder('utf-8', { fatal: true }).decode(parts[1]), '😁');
      // A change ending between the halves of a kept pair.
      // U+1F600 and U+1F200 share their low surrogate: the common suffix starts inside the pair.
      expectWrite('\uD83D\uDE00x\n', '\uD83C\uDE00x\n', false);
      expectWrite('\uD83D\uDE00\uD83D\uDE01', '\uD83D\uDE01\uD83D\uDE01', true);
    });

    it('keep the untouched bytes of a 10 MB file as they are, encoding only the changed line', () => {
      const lines = Array.from({ length: 150_000 }, (_, i) => `export const value${i} = ${i}; // some text\r\n`);
      const raw = lines.join('');
      const content = raw.replace('value75000 = 75000;', 'value75000 = 1;').replace(/\r\n/g, '\n');
      const { parts, bytes } = expectWrite(raw, content, true);
      assert.equal(parts[1].length, 1);
      assert.ok(parts[0].buffer === bytes.buffer && parts[2].buffer === bytes.buffer, 'the head and tail are the file\'s own bytes');
    });
  });

  describe('plainBytes', () => {
    it('gives a file read\'s own bytes as a plain Uint8Array, without copying them', () => {
      const read = Buffer.allocUnsafeSlow(64 * 1024).fill(7);
      const bytes = plainBytes(read);
      assert.ok(!Buffer.isBuffer(bytes), 'a plain Uint8Array (Buffer differs in slice, toString, JSON)');
      assert.equal(bytes.buffer, read.buffer, 'the same memory: a 10 MB read is not held twice');
      assert.equal(bytes.length, read.length);
      assert.deepEqual(bytes, new Uint8Array(read));
    });

    it('copies a small read carved from Node\'s shared pool: its bytes alone, not its neighbours', () => {
      const pooled = Buffer.from('abc');
      assert.ok(pooled.buffer.byteLength > pooled.length, 'a slice of the pool');
      const bytes = plainBytes(pooled);
      assert.equal(bytes.buffer.byteLength, 3);
      assert.deepEqual(bytes, new Uint8Array([0x61, 0x62, 0x63]));
    });
  });
});
