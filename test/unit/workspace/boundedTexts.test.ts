import * as assert from 'node:assert/strict';
import { BoundedTexts } from '../../../src/extension/workspace/model/boundedTexts';

describe('BoundedTexts (the snapshot documents behind review and overwrite diffs)', () => {
  it('forgets the oldest text beyond the entry limit', () => {
    const texts = new BoundedTexts({ maxEntries: 2, maxChars: 1000 });
    texts.set('1', 'one');
    texts.set('2', 'two');
    texts.set('3', 'three');
    assert.equal(texts.get('1'), undefined);
    assert.equal(texts.get('2'), 'two');
    assert.equal(texts.get('3'), 'three');
    assert.equal(texts.size, 2);
    assert.equal(texts.totalChars, 8);
  });

  it('forgets the oldest texts beyond the size limit, but always keeps the newest', () => {
    const texts = new BoundedTexts({ maxEntries: 100, maxChars: 10 });
    texts.set('a', '12345');
    texts.set('b', '12345');
    texts.set('c', '1');
    assert.equal(texts.get('a'), undefined);
    assert.deepEqual([texts.get('b'), texts.get('c')], ['12345', '1']);
    texts.set('huge', 'x'.repeat(50));
    assert.equal(texts.size, 1);
    assert.equal(texts.get('huge')?.length, 50);
  });

  it('counts a replaced or deleted text once', () => {
    const texts = new BoundedTexts({ maxEntries: 10, maxChars: 100 });
    texts.set('a', 'abc');
    texts.set('a', 'abcdef');
    assert.equal(texts.totalChars, 6);
    texts.delete('a');
    texts.delete('a');
    assert.equal(texts.totalChars, 0);
    assert.equal(texts.size, 0);
  });
});
