import * as assert from 'node:assert/strict';
import { diffArrays } from 'diff';
import { computeHunks, placeHunks, splitLines, type LineHunk } from '../../../src/extension/review/model/actionHunks';

/** The hunks as computed line by line over the whole texts (what `computeHunks` did before it looked at strings first). */
function referenceHunks(before: string, after: string): LineHunk[] {
  const from = splitLines(before);
  const to = splitLines(after);
  let head = 0;
  while (head < from.length && head < to.length && from[head] === to[head]) head++;
  let tail = 0;
  while (tail < from.length - head && tail < to.length - head && from[from.length - 1 - tail] === to[to.length - 1 - tail]) tail++;
  const a = from.slice(head, from.length - tail);
  const b = to.slice(head, to.length - tail);
  if (a.length === 0 && b.length === 0) return [];
  const parts = a.length && b.length ? diffArrays(a, b, { maxEditLength: 1000 }) : undefined;
  if (!parts) return [{ oldStart: head, oldLines: a, newStart: head, newLines: b }];
  const hunks: LineHunk[] = [];
  let x = head;
  let y = head;
  let open: { oldStart: number; oldLines: string[]; newStart: number; newLines: string[] } | undefined;
  for (const part of parts) {
    if (!part.added && !part.removed) {
      if (open) hunks.push(open);
      open = undefined;
      x += part.value.length;
      y += part.value.length;
      continue;
    }
    open ??= { oldStart: x, oldLines: [], newStart: y, newLines: [] };
    if (part.removed) {
      open.oldLines.push(...part.value);
      x += part.value.length;
    } else {
      open.newLines.push(...part.value);
      y += part.value.length;
    }
  }
  if (open) hunks.push(open);
  return hunks;
}

describe('action log: hunks of big files', () => {
  it('finds the same hunks as a line-by-line diff of the whole texts (random edits, repeated lines, CRLF, no final newline)', () => {
    let seed = 11;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const line = () => ['a', 'b', 'same line', `line ${random(5)}`][random(4)] + ['\n', '\r\n'][random(2)];
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: random(30) }, line);
      const edited = [...lines];
      for (let k = random(3); k >= 0; k--) edited.splice(random(edited.length + 1), random(3), ...Array.from({ length: random(3) }, line));
      const cut = (text: string) => (random(4) === 0 ? text.replace(/\r?\n$/, '') : text);
      const before = cut(lines.join(''));
      const after = cut(edited.join(''));
      assert.deepEqual(computeHunks(before, after), referenceHunks(before, after), JSON.stringify({ before, after }));
    }
  });

  it('diffs a one-line edit of a 10 MB file to one hunk at the right line, and places it', () => {
    const lines = Array.from({ length: 150_000 }, (_, i) => `export const value${i} = compute(${i}, "text");\n`);
    const before = lines.join('');
    lines[75_000] = 'export const edited = true;\n';
    const after = lines.join('');
    const hunks = computeHunks(before, after);
    assert.deepEqual(hunks, [{ oldStart: 75_000, oldLines: ['export const value75000 = compute(75000, "text");\n'], newStart: 75_000, newLines: ['export const edited = true;\n'] }]);
    const current = 'a line the user added\n' + after;
    assert.deepEqual(placeHunks(after, current, hunks), [{ ok: true, start: 75_001, count: 1 }]);
  });
});
