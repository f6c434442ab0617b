import * as assert from 'node:assert/strict';
import { DIFF_SCHEME, decodeDiffDocUri, encodeDiffDocUri, type DiffDocKey, type UriParts } from '../../../../src/extension/cards/diff/model/virtualDocs';

/** Through a URI string and back (as `Uri.from(parts).toString()` then `Uri.parse` would), approximated with WHATWG URL. */
function throughUriString(parts: UriParts): UriParts {
  const url = new URL(`${parts.scheme}://${encodeURI(parts.path)}?${parts.query}`.replace('://', ':'));
  return { scheme: url.protocol.replace(/:$/, ''), path: decodeURI(url.pathname), query: url.search.replace(/^\?/, '') };
}

describe('diff document URIs', () => {
  const key: DiffDocKey = { sessionId: 's-1', toolCallId: 'toolu_01', index: 2, side: 'old', path: '/home/u/proj/src/a.ts' };

  it('ends the URI path with the real file name, so the language mode is right', () => {
    const parts = encodeDiffDocUri(key);
    assert.equal(parts.scheme, DIFF_SCHEME);
    assert.equal(parts.path, '/home/u/proj/src/a.ts');
    assert.match(parts.path, /a\.ts$/);
  });

  it('round-trips', () => {
    assert.deepEqual(decodeDiffDocUri(encodeDiffDocUri(key)), { ok: true, value: key });
    const fresh = { ...key, side: 'new' as const, index: 0 };
    assert.deepEqual(decodeDiffDocUri(encodeDiffDocUri(fresh)), { ok: true, value: fresh });
  });

  it('round-trips ids with special characters', () => {
    for (const id of ['a&b=c', 'with space', 'plus+sign', '100%', 'q?x#y', 'slash/and\\back', 'ünïcødé 漢 😀', 'a\nb']) {
      const k = { ...key, sessionId: `s ${id}`, toolCallId: id };
      assert.deepEqual(decodeDiffDocUri(encodeDiffDocUri(k)), { ok: true, value: k }, id);
      assert.deepEqual(decodeDiffDocUri(throughUriString(encodeDiffDocUri(k))), { ok: true, value: k }, `${id} through a URI string`);
    }
  });

  it('keys the same file by content index, so several hunks stay apart', () => {
    const a = encodeDiffDocUri({ ...key, index: 0 });
    const b = encodeDiffDocUri({ ...key, index: 1 });
    assert.equal(a.path, b.path);
    assert.notEqual(a.query, b.query);
  });

  it('turns a Windows path into a URI path ending in the file name', () => {
    const parts = encodeDiffDocUri({ ...key, path: 'C:\\Users\\u\\proj\\a.py' });
    assert.equal(parts.path, '/C:/Users/u/proj/a.py');
    const decoded = decodeDiffDocUri(parts);
    assert.ok(decoded.ok);
    assert.equal(decoded.value.path, '/C:/Users/u/proj/a.py');
  });

  it('never lets the URI path start with two slashes', () => {
    assert.equal(encodeDiffDocUri({ ...key, path: '//server/share/a.ts' }).path, '/server/share/a.ts');
    assert.equal(encodeDiffDocUri({ ...key, path: 'relative.ts' }).path, '/relative.ts');
  });

  it('returns an error value for garbage, never throws', () => {
    const valid = encodeDiffDocUri(key);
    const garbage: unknown[] = [
      { ...valid, scheme: 'file' },
      { ...valid, query: '' },
      { ...valid, query: 'session=s&call=c&index=-1&side=old' },
      { ...valid, query: 'session=s&call=c&index=1.5&side=old' },
      { ...valid, query: 'session=s&call=c&index=99999999999&side=old' },
      { ...valid, query: 'session=s&call=c&index=1&side=middle' },
      { ...valid, query: 'session=&call=c&index=1&side=old' },
      { ...valid, query: '%%%&&&===' },
      { scheme: DIFF_SCHEME },
      null,
      'acp-native:/x',
    ];
    for (const parts of garbage) {
      const decoded = decodeDiffDocUri(parts as UriParts);
      assert.equal(decoded.ok, false, JSON.stringify(parts));
      if (!decoded.ok) assert.ok(decoded.error.length > 0);
    }
  });
});
