import * as assert from 'node:assert/strict';
import { samePieces, samePiecesAsLines } from '../../../src/extension/base/textPieces';

describe('text pieces', () => {
  it('are the same text however they are cut, empty pieces included', () => {
    assert.ok(samePieces(['abc', 'def'], ['abcdef']));
    assert.ok(samePieces(['a', '', 'bcd', 'ef'], ['ab', 'cdef', '']));
    assert.ok(samePieces([], ['', '']));
  });

  it('differ by one character anywhere, or by length', () => {
    assert.ok(!samePieces(['abc', 'def'], ['abc', 'deg']));
    assert.ok(!samePieces(['abc', 'def'], ['abcdefg']));
    assert.ok(!samePieces(['abcdef', 'x'], ['abcdef']));
    assert.ok(!samePieces([''], ['a']));
  });

  describe('against lines', () => {
    const asLines = (pieces: string[], text: string) => {
      const lines = text.split('\n');
      return samePiecesAsLines(pieces, lines.length, (i) => lines[i]);
    };

    it('are the lines joined with LF, however the pieces cut them', () => {
      assert.ok(asLines(['ab\nc', 'd\n', '', 'ef'], 'ab\ncd\nef'));
      assert.ok(asLines(['a', 'b\n'], 'ab\n'), 'a last empty line');
      assert.ok(asLines([], ''));
      assert.ok(asLines(['x'.repeat(100), '\n', 'y'], `${'x'.repeat(100)}\ny`));
    });

    it('differ by a character, a line break or a length', () => {
      assert.ok(!asLines(['ab\ncd'], 'ab\nce'));
      assert.ok(!asLines(['ab', 'cd'], 'ab\ncd'), 'a missing line break');
      assert.ok(!asLines(['ab\ncd\n'], 'ab\ncd'), 'a line more');
      assert.ok(!asLines(['ab\nc'], 'ab\ncd'), 'shorter');
      assert.ok(!asLines(['ab\ncde'], 'ab\ncd'), 'longer');
    });
  });
});
