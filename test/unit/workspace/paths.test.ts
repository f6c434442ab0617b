import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { canonicalSpelling, isInside, normalizeAbsolute, sliceLines } from '../../../src/extension/workspace/model/paths';

describe('agent path rules', () => {
  it('refuses relative, empty and NUL paths with a reason', () => {
    assert.deepEqual(normalizeAbsolute('src/a.ts'), { ok: false, reason: 'The path must be absolute: src/a.ts' });
    assert.equal(normalizeAbsolute('').ok, false);
    assert.equal(normalizeAbsolute('/ws/a\0b').ok, false);
  });

  it('normalizes ../ before the containment check, so traversal cannot escape', () => {
    const n = normalizeAbsolute('/ws/project/src/../../secret');
    assert.deepEqual(n, { ok: true, path: '/ws/secret' });
    assert.equal(isInside('/ws/secret', '/ws/project'), false);
    assert.equal(isInside('/ws/project/src/a.ts', '/ws/project'), true);
    assert.equal(isInside('/ws/project', '/ws/project'), true);
    assert.equal(isInside('/ws/project-other/a.ts', '/ws/project'), false);
  });

  it('works with Windows paths too', () => {
    assert.equal(isInside('C:\\ws\\a.ts', 'C:\\ws', path.win32), true);
    assert.equal(isInside('D:\\ws\\a.ts', 'C:\\ws', path.win32), false);
  });

  it('slices by 1-based line and limit', () => {
    const text = 'a\nb\nc\nd';
    assert.equal(sliceLines(text), text);
    assert.equal(sliceLines(text, 2), 'b\nc\nd');
    assert.equal(sliceLines(text, 2, 2), 'b\nc');
    assert.equal(sliceLines(text, null, 1), 'a');
  });
});

describe('canonical spelling of a resolved path', () => {
  it('spells a real path under the workspace folder as the folder is spelled', () => {
    const folders = [{ path: '/home/me/ws', real: '/data/ws' }];
    assert.equal(canonicalSpelling('/data/ws/src/a.txt', folders), '/home/me/ws/src/a.txt');
    assert.equal(canonicalSpelling('/data/ws', folders), '/home/me/ws');
    assert.equal(canonicalSpelling('/elsewhere/b.txt', folders), '/elsewhere/b.txt');
    assert.equal(canonicalSpelling('/data/ws-other/a', folders), '/data/ws-other/a');
  });
});
