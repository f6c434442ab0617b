import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MAX_JOURNAL_BYTES, SessionJournals } from '../../../src/extension/session/sessionJournals';
import type { Logger } from '../../../src/extension/base/log';

const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;

describe('session journals on disk', () => {
  let dir: string;
  let journals: SessionJournals;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-journals-'));
    journals = new SessionJournals(dir, log);
  });
  afterEach(() => {
    journals.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a session going on when told to, and starts it again otherwise, only once something new is written', () => {
    const write = journals.writer('s1');
    write({ k: 'prompt', prompt: [{ type: 'text', text: 'one' }] });
    write({ k: 'end' });
    journals.continueWith('s1');
    journals.writer('s1')({ k: 'prompt', prompt: [{ type: 'text', text: 'two' }] });
    assert.deepEqual(journals.read('s1')?.entries.map((e) => e.k), ['prompt', 'end', 'prompt']);

    // A new record (a session/load, or an id handed out again): the old journal stays until it writes.
    const fresh = journals.writer('s1');
    assert.equal(journals.read('s1')?.entries.length, 3, 'a load the agent refuses loses nothing');
    fresh({ k: 'end' });
    assert.deepEqual(journals.read('s1')?.entries.map((e) => e.k), ['end']);
  });

  it('says a journal past its size is not whole', () => {
    const write = journals.writer('big');
    write({ k: 'prompt', prompt: [{ type: 'text', text: 'x'.repeat(MAX_JOURNAL_BYTES) }] });
    write({ k: 'end' });
    const big = journals.read('big');
    assert.match(big?.incomplete ?? '', /passed 8 MB/);
    assert.deepEqual(big?.entries.map((e) => e.k), ['cut']);

  });

  it('says a corrupted journal is not whole (a torn last write), keeping the lines before', () => {
    journals.writer('torn')({ k: 'end' });
    journals.flushSync();
    const [file] = fs.readdirSync(dir);
    assert.ok(file);
    fs.appendFileSync(path.join(dir, file), '{"k":"upd');
    const torn = journals.read('torn');
    assert.match(torn?.incomplete ?? '', /not JSON/);
    assert.deepEqual(torn?.entries.map((e) => e.k), ['end']);
    assert.equal(journals.read('never'), undefined);
  });

  it('searches the words, forgets a deleted session and prunes those no longer in the history', async () => {
    const write = journals.writer('a');
    write({ k: 'prompt', prompt: [{ type: 'text', text: 'find the walrus' }] });
    write({ k: 'end' });
    journals.writer('b')({ k: 'end' });
    journals.writer('c')({ k: 'end' });
    assert.equal(await journals.textOf('a'), 'find the walrus');
    journals.forget('a');
    assert.equal(await journals.textOf('a'), undefined);
    journals.prune(['b']);
    assert.ok(journals.read('b'));
    assert.equal(journals.read('c'), undefined);
  });
});
