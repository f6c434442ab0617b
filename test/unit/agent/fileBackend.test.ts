/** The local file backend: LF-normalized facts, line endings kept on disk, binary files safe. */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decode, editText, writeText } from '../../../src/agent/files/local';
import { replacementDiff } from '../../../src/agent/hunks';
import { ToolError } from '../../../src/agent/tools/types';

describe('file backend', () => {
  let dir: string;
  const file = (name: string) => path.join(dir, name);
  beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'acp-native-fb-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('edits a CRLF file: LF facts and hunks, CRLF on disk, replacement newlines too', async () => {
    writeFileSync(file('crlf.txt'), 'one\r\ntwo\r\nthree\r\n');
    const facts = await editText(file('crlf.txt'), 'two\n', 'zwei\ndeux\n', false);
    assert.equal(readFileSync(file('crlf.txt'), 'utf8'), 'one\r\nzwei\r\ndeux\r\nthree\r\n');
    assert.equal(facts.before, 'one\ntwo\nthree\n');
    assert.equal(facts.after, 'one\nzwei\ndeux\nthree\n');
    const result = replacementDiff(file('crlf.txt'), facts.before, facts.after, facts.sites);
    assert.deepEqual(result.kind === 'hunks' ? result.diffs[0] : undefined, {
      path: file('crlf.txt'),
      oldText: 'one\ntwo\nthree',
      newText: 'one\nzwei\ndeux\nthree',
    });
  });

  it('leaves every untouched byte of a mixed-ending file as it was', async () => {
    writeFileSync(file('mixed.txt'), 'a\r\nb\nc\r\nd\n');
    await editText(file('mixed.txt'), 'c', 'C', false);
    assert.equal(readFileSync(file('mixed.txt'), 'utf8'), 'a\r\nb\nC\r\nd\n');
  });

  it('keeps CRLF and a BOM when a write replaces a file', async () => {
    writeFileSync(file('bom.txt'), '\uFEFFold\r\n');
    const facts = await writeText(file('bom.txt'), 'new\nlines\n');
    assert.equal(readFileSync(file('bom.txt'), 'utf8'), '\uFEFFnew\r\nlines\r\n');
    assert.deepEqual(facts, { before: 'old\n', after: 'new\nlines\n', created: false });
  });

  it('refuses to edit a binary file, with a clear error, and leaves it alone', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]);
    writeFileSync(file('image.png'), bytes);
    await assert.rejects(editText(file('image.png'), 'PNG', 'JPG', false), (e: Error) => e instanceof ToolError && /binary or not UTF-8/.test(e.message));
    assert.deepEqual(readFileSync(file('image.png')), bytes);
  });

  it('treats invalid UTF-8 as binary: a write replaces it whole with before = null', async () => {
    writeFileSync(file('latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    assert.equal(decode(readFileSync(file('latin1.txt'))).kind, 'binary');
    const facts = await writeText(file('latin1.txt'), 'café\n');
    assert.deepEqual(facts, { before: null, after: 'café\n', created: false });
    assert.equal(readFileSync(file('latin1.txt'), 'utf8'), 'café\n');
  });

  it('creates files and their folders; before is null for a create', async () => {
    assert.deepEqual(await writeText(file('a/b/c.txt'), 'x\n'), { before: null, after: 'x\n', created: true });
    const created = await editText(file('d/e.txt'), '', 'y\n', false);
    assert.equal(created.before, null);
    assert.equal(readFileSync(file('d/e.txt'), 'utf8'), 'y\n');
  });

  it('reports edit mistakes as tool errors the model can act on', async () => {
    writeFileSync(file('t.txt'), 'a a\n');
    await assert.rejects(editText(file('t.txt'), 'a', 'b', false), /occurs 2 times/);
    await assert.rejects(editText(file('t.txt'), 'z', 'b', false), /not found/);
    await assert.rejects(editText(file('t.txt'), 'a', 'a', true), /identical/);
    await assert.rejects(editText(file('missing.txt'), 'a', 'b', false), /File not found/);
    await assert.rejects(editText(dir, 'a', 'b', false), /is a directory/);
    const all = await editText(file('t.txt'), 'a', 'b', true);
    assert.equal(all.sites.length, 2);
    assert.equal(readFileSync(file('t.txt'), 'utf8'), 'b b\n');
  });
});
