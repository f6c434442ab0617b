import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ActionLog } from '../../../src/extension/review/model/actionLog';
import { ActionLogStore } from '../../../src/extension/review/actionLogStore';
import { fingerprintFile } from '../../../src/extension/review/largeFileCopy';

/** 3 MB of CRLF lines after a UTF-8 BOM, with bytes that are not UTF-8: a copy must not decode anything. */
function largeBytes(): Buffer {
  const line = Buffer.from('line of a large file\r\n');
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.alloc(3 * 1024 * 1024, line), Buffer.from([0xff, 0xfe, 0x00])]);
}

describe('action log storage: copies of files larger than 2 MB', () => {
  let dir: string;
  let work: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-action-log-'));
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-action-work-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('copies a large file byte for byte off the event loop, with its hash', async () => {
    const source = path.join(work, 'big.log');
    const bytes = largeBytes();
    fs.writeFileSync(source, bytes);
    const store = new ActionLogStore(dir);
    const copy = store.copyLarge(source);
    const result = await copy.done;
    assert.deepEqual(result, { ok: true, sha256: createHash('sha256').update(bytes).digest('hex') });
    assert.ok(fs.readFileSync(store.largePath(copy.blob)).equals(bytes));
    store.dropLarge(copy.blob);
    assert.equal(fs.existsSync(store.largePath(copy.blob)), false);
  });

  it('says the copy is not the file before when the file changed while it was copied', async () => {
    const source = path.join(work, 'big.log');
    fs.writeFileSync(source, largeBytes());
    const store = new ActionLogStore(dir);
    const copy = store.copyLarge(source);
    // The agent writes right after the tool call named the file.
    fs.appendFileSync(source, 'the agent was here\n');
    assert.deepEqual(await copy.done, { ok: false, reason: 'it changed while it was being copied' });
  });

  it('keeps the large copies out of the session JSON, and brings back their references', async () => {
    const source = path.join(work, 'big.log');
    fs.writeFileSync(source, largeBytes());
    const store = new ActionLogStore(dir);
    const copy = store.copyLarge(source);
    const done = await copy.done;
    assert.ok(done.ok);
    const log = new ActionLog();
    log.beginTurn('s1', 0);
    const change = log.record('s1', source, 'tool', { kind: 'large', size: fs.statSync(source).size, blob: copy.blob, sha256: done.sha256 }, 'c1');
    log.setAfter(change, { kind: 'large', size: 10, sha256: 'a'.repeat(64) });
    store.save('s1', log.serialize('s1')!);
    const json = fs.readFileSync(path.join(dir, 's1.json'), 'utf8');
    assert.ok(json.length < 2000, `the JSON holds references, not texts (${json.length} chars)`);
    assert.deepEqual(store.load('s1')?.changes[0].before, change.before);
  });

  it('drops the copies no stored session and no live change names once they are old (a crash left them)', async () => {
    const source = path.join(work, 'big.log');
    fs.writeFileSync(source, largeBytes());
    const liveBlobs = new Set<string>();
    const store = new ActionLogStore(dir, { liveLarge: () => liveBlobs });
    const saved = store.copyLarge(source);
    const live = store.copyLarge(source);
    const orphan = store.copyLarge(source);
    await Promise.all([saved.done, live.done, orphan.done]);
    const log = new ActionLog();
    log.beginTurn('s1', 0);
    log.setAfter(log.record('s1', source, 'tool', { kind: 'large', size: 1, blob: saved.blob }, 'c1'), { kind: 'absent' });
    store.save('s1', log.serialize('s1')!);
    liveBlobs.add(live.blob);
    // A fresh copy no log names yet may be another window's (it saves its log within a second).
    store.sweepLarge();
    assert.deepEqual(fs.readdirSync(store.largeDir).sort(), [saved.blob, live.blob, orphan.blob].sort(), 'a fresh orphan stays');
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const blob of [saved.blob, live.blob, orphan.blob]) fs.utimesSync(store.largePath(blob), hourAgo, hourAgo);
    store.sweepLarge();
    assert.deepEqual(fs.readdirSync(store.largeDir).sort(), [saved.blob, live.blob].sort());
  });

  it('fingerprints a file in slices: size and SHA-256, or absent', async () => {
    const source = path.join(work, 'big.log');
    const bytes = largeBytes();
    fs.writeFileSync(source, bytes);
    assert.deepEqual(await fingerprintFile(source), { kind: 'file', size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    assert.deepEqual(await fingerprintFile(path.join(work, 'gone')), { kind: 'absent' });
  });

  it('refuses names that are not its copies (no path out of the storage)', () => {
    const store = new ActionLogStore(dir);
    assert.throws(() => store.largePath('../../etc/passwd'), /Not a copy of the action log/);
  });
});
