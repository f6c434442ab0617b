import * as assert from 'node:assert/strict';
import { samePieces } from '../../../src/extension/core/textPieces';

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
});
