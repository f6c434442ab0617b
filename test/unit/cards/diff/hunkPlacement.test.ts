import * as assert from 'node:assert/strict';
import { revertHunkPieces, revertHunks } from '../../../../src/extension/cards/diff/model/hunkPlacement';

const after = 'export function greet(name) {\n  return `Hi, ${name}!`;\n}\n\nexport function bye(name) {\n  return `See you, ${name}.`;\n}\n';

describe('putting hunks back in their file', () => {
  it('turns every applied hunk back into its old text, in place', () => {
    const before = revertHunks(after, [
      { oldText: 'export function greet(name) {\n  return `Hello, ${name}!`;', newText: 'export function greet(name) {\n  return `Hi, ${name}!`;' },
      { oldText: '  return `Goodbye, ${name}.`;\n}', newText: '  return `See you, ${name}.`;\n}' },
    ]);
    assert.equal(before, after.replace('Hi,', 'Hello,').replace('See you,', 'Goodbye,'));
  });

  it('places nothing for a call-time snippet that is not whole lines', () => {
    assert.equal(revertHunks(after, [{ oldText: 'Hello', newText: 'Hi' }]), undefined);
  });

  it('places nothing when the file no longer holds the new text', () => {
    assert.equal(revertHunks(after, [{ oldText: 'a', newText: '  return 42;' }]), undefined);
  });

  it('places nothing for hunks out of order, or an empty one', () => {
    const first = { oldText: 'x', newText: 'export function greet(name) {' };
    const second = { oldText: 'y', newText: 'export function bye(name) {' };
    assert.ok(revertHunks(after, [first, second]));
    assert.equal(revertHunks(after, [second, first]), undefined);
    assert.equal(revertHunks(after, [{ oldText: 'x', newText: '' }]), undefined);
    assert.equal(revertHunks(after, []), undefined);
  });

  it('skips an earlier match inside a longer line', () => {
    const text = 'let a = 1; // b = 2\nb = 2\n';
    assert.equal(revertHunks(text, [{ oldText: 'b = 3', newText: 'b = 2' }]), 'let a = 1; // b = 2\nb = 3\n');
  });

  it('gives the same file as pieces: slices of the file and the old texts, in order', () => {
    const hunks = [
      { oldText: 'export function greet(name) {\n  return `Hello, ${name}!`;', newText: 'export function greet(name) {\n  return `Hi, ${name}!`;' },
      { oldText: '  return `Goodbye, ${name}.`;\n}', newText: '  return `See you, ${name}.`;\n}' },
    ];
    const pieces = revertHunkPieces(after, hunks);
    assert.deepEqual(pieces, ['', hunks[0].oldText, after.slice(after.indexOf('\n}\n'), after.indexOf('  return `See')), hunks[1].oldText, '\n']);
    assert.equal(pieces?.join(''), revertHunks(after, hunks));
    assert.equal(revertHunkPieces(after, [{ oldText: 'Hello', newText: 'Hi' }]), undefined);
  });
});
