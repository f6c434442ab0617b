import * as assert from 'node:assert/strict';
import { encodeSliced } from '../../../../src/extension/cards/diff/model/slicedEncode';

describe('encodeSliced', () => {
  const whole = (text: string) => new TextEncoder().encode(text);
  const counting = () => {
    const turns = { count: 0 };
    return { turns, nextTurn: async () => void turns.count++ };
  };

  it('gives the bytes TextEncoder gives, a slice per turn, for ASCII, accents, CJK, emoji and CRLF', async () => {
    const text = 'line one\r\nçé 漢字 😀😀 end\r\n'.repeat(50);
    for (const sliceChars of [2, 3, 7, 64, 1000]) {
      const { turns, nextTurn } = counting();
      const bytes = await encodeSliced(text, { sliceChars, nextTurn });
      assert.deepEqual(bytes, whole(text), `slices of ${sliceChars}`);
      assert.ok(turns.count >= Math.floor(text.length / sliceChars) - 1 || sliceChars >= text.length, `${turns.count} turns for slices of ${sliceChars}`);
    }
  });

  it('never splits a surrogate pair at a slice edge (no U+FFFD where the text had an emoji)', async () => {
    // Each slice of 3 ends inside a pair unless the encoder steps back.
    const text = `a${'😀'.repeat(200)}`;
    const bytes = await encodeSliced(text, { sliceChars: 3, nextTurn: async () => undefined });
    assert.deepEqual(bytes, whole(text));
    assert.ok(!new TextDecoder().decode(bytes).includes('\uFFFD'));
  });

  it('encodes lone surrogates as TextEncoder does', async () => {
    const text = `x\uD800y\uDC00z${'\uD83D'}`.repeat(20);
    assert.deepEqual(await encodeSliced(text, { sliceChars: 4, nextTurn: async () => undefined }), whole(text));
  });

  it('encodes a short text at once, without waiting a turn', async () => {
    const { turns, nextTurn } = counting();
    assert.deepEqual(await encodeSliced('short', { sliceChars: 100, nextTurn }), whole('short'));
    assert.equal(turns.count, 0);
  });

  it('encodes a text given in pieces as the joined text, pairs split between pieces included', async () => {
    const text = 'line one\r\nçé 漢字 😀😀 end\r\n'.repeat(30);
    const pair = text.indexOf('😀') + 1; // between the two halves of the first emoji
    const cuts = [0, 5, pair, pair, text.length - 7, text.length];
    const pieces = cuts.slice(1).map((end, i) => text.slice(cuts[i], end));
    assert.ok(pieces.includes(''), 'an empty piece is among them');
    for (const sliceChars of [2, 3, 16, 1000]) {
      const bytes = await encodeSliced(pieces, { sliceChars, nextTurn: async () => undefined });
      assert.deepEqual(bytes, whole(text), `slices of ${sliceChars}`);
    }
    assert.deepEqual(await encodeSliced(['a\uD83D', 'x'], { sliceChars: 2, nextTurn: async () => undefined }), whole('a\uD83Dx'));
    assert.deepEqual(await encodeSliced(['ab', '\uD83D'], { sliceChars: 2, nextTurn: async () => undefined }), whole('ab\uD83D'));
  });

  it('encodes large pieces a slice per turn, across the pieces', async () => {
    const file = 'x'.repeat(4000) + '\n';
    const pieces = [file.slice(0, 1000), 'changed\n', file.slice(1000)];
    const { turns, nextTurn } = counting();
    const bytes = await encodeSliced(pieces, { sliceChars: 256, nextTurn });
    assert.deepEqual(bytes, whole(pieces.join('')));
    assert.ok(turns.count >= 15, `${turns.count} turns`);
  });
});
