import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encodeText } from '../../../src/extension/review/model/actionHunks';
import { ActionLog, viewOf } from '../../../src/extension/review/model/actionLog';
import { ActionLogStore } from '../../../src/extension/review/actionLogStore';

describe('action log storage', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-action-log-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('brings back a session\'s log byte for byte, large texts kept as files of their own', () => {
    const log = new ActionLog();
    log.beginTurn('s/1', 2);
    const big = 'x'.repeat(40_000) + '\r\n';
    const small = log.record('s/1', '/w/a.txt', 'tool', { kind: 'bytes', bytes: encodeText('a\r\nb\r\n', true) }, 'call1');
    log.setAfter(small, { kind: 'bytes', bytes: encodeText('a\r\nB\r\n', true) });
    small.hunkStates[0] = 'kept';
    const large = log.record('s/1', '/w/big.txt', 'watcher', { kind: 'bytes', bytes: encodeText(big, false) });
    log.setAfter(large, { kind: 'absent' });
    const unknown = log.record('s/1', '/w/c.txt', 'watcher', { kind: 'unknown', reason: 'changed by a command' });
    log.setAfter(unknown, { kind: 'bytes', bytes: encodeText('c\n', false) });

    const store = new ActionLogStore(dir);
    store.save('s/1', log.serialize('s/1')!);
    assert.equal(fs.readdirSync(path.join(dir, 'blobs')).length, 1, 'the large text is a file of its own');

    const again = new ActionLog();
    again.replaceSession('s/1', new ActionLogStore(dir).load('s/1')!);
    const changes = again.changes('s/1');
    assert.deepEqual(changes.map((c) => [c.turn, c.path, c.source]), [[2, '/w/a.txt', 'tool'], [2, '/w/big.txt', 'watcher'], [2, '/w/c.txt', 'watcher']]);
    assert.deepEqual(changes[0].before, small.before);
    assert.deepEqual(changes[0].hunkStates, ['kept']);
    assert.deepEqual(changes[0].toolCallIds, ['call1']);
    assert.deepEqual(changes[1].before, large.before);
    assert.equal(viewOf(changes[1]).deleted, true);
    assert.equal(viewOf(changes[2]).status, 'no-undo');
    // New changes after a reload get ids of their own.
    again.beginTurn('s/1', 3);
    assert.ok(again.record('s/1', '/w/a.txt', 'fs', { kind: 'absent' }).id > large.id);
  });

  it('saves a log again and again (as during a turn) without losing a large text whose file went missing', () => {
    const log = new ActionLog();
    log.beginTurn('s1', 0);
    const big = encodeText('y'.repeat(40_000), false);
    const change = log.record('s1', '/w/big.txt', 'tool', { kind: 'bytes', bytes: big });
    log.setAfter(change, { kind: 'bytes', bytes: encodeText('small\n', false) });
    const store = new ActionLogStore(dir);
    store.save('s1', log.serialize('s1')!);
    const blobs = path.join(dir, 'blobs');
    const [blob] = fs.readdirSync(blobs);
    // Gone meanwhile (pruned with another session that used it): the next save writes it again.
    fs.rmSync(path.join(blobs, blob));
    store.save('s1', log.serialize('s1')!);
    assert.deepEqual(fs.readdirSync(blobs), [blob]);
    const loaded = new ActionLogStore(dir).load('s1')!;
    assert.deepEqual(loaded.changes[0].before, { kind: 'bytes', bytes: big });
  });

  it('keeps only the most recent sessions', () => {
    const store = new ActionLogStore(dir);
    for (let i = 0; i < 23; i++) {
      const log = new ActionLog();
      log.beginTurn(`s${i}`, 0);
      log.setAfter(log.record(`s${i}`, '/w/a', 'tool', { kind: 'absent' }), { kind: 'bytes', bytes: encodeText(`${i}\n`, false) });
      store.save(`s${i}`, log.serialize(`s${i}`)!);
      const file = path.join(dir, `s${i}.json`);
      fs.utimesSync(file, new Date(), new Date(Date.now() + i * 1000));
    }
    const kept = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.equal(kept.length, 20);
    assert.equal(store.load('s0'), undefined);
    assert.ok(store.load('s22'));
  });

  it('saves in the background, newest data winning, and serves a log not yet on disk from memory', async () => {
    const log = new ActionLog();
    log.beginTurn('s1', 0);
    const change = log.record('s1', '/w/a.txt', 'tool', { kind: 'bytes', bytes: encodeText('a\n', false) });
    log.setAfter(change, { kind: 'bytes', bytes: encodeText('b\n', false) });
    const store = new ActionLogStore(dir);
    const first = store.saveInBackground('s1', log.serialize('s1')!);
    // Nothing written yet (the thread pool writes it), yet a reload of the session finds its log.
    assert.equal(fs.existsSync(path.join(dir, 's1.json')), false);
    assert.deepEqual(store.load('s1')?.changes.map((c) => c.path), ['/w/a.txt']);
    log.record('s1', '/w/b.txt', 'tool', { kind: 'absent' });
    const second = store.saveInBackground('s1', log.serialize('s1')!);
    await Promise.all([first, second]);
    await store.whenIdle();
    const loaded = new ActionLogStore(dir).load('s1')!;
    assert.deepEqual(loaded.changes.map((c) => c.path), ['/w/a.txt', '/w/b.txt']);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.includes('.tmp')), [], 'no temporary file left');
  });

  it('lets a synchronous save (deactivation) overtake a background one, never the other way round', async () => {
    const log = new ActionLog();
    log.beginTurn('s1', 0);
    log.record('s1', '/w/old.txt', 'tool', { kind: 'absent' });
    const store = new ActionLogStore(dir);
    const background = store.saveInBackground('s1', log.serialize('s1')!);
    log.record('s1', '/w/new.txt', 'tool', { kind: 'absent' });
    const newer = log.serialize('s1')!;
    // Wait until the background write is under way, then save synchronously.
    await new Promise((resolve) => setImmediate(resolve));
    store.save('s1', newer);
    await background;
    await store.whenIdle();
    assert.deepEqual(new ActionLogStore(dir).load('s1')!.changes.map((c) => c.path), ['/w/old.txt', '/w/new.txt']);
  });

  it('writes what still waits synchronously on flush (the extension host may exit next)', async () => {
    const log = new ActionLog();
    log.beginTurn('s1', 0);
    log.record('s1', '/w/a.txt', 'tool', { kind: 'absent' });
    const store = new ActionLogStore(dir);
    const background = store.saveInBackground('s1', log.serialize('s1')!);
    store.flushSync();
    assert.deepEqual(new ActionLogStore(dir).load('s1')!.changes.map((c) => c.path), ['/w/a.txt']);
    // The overtaken background write settles without undoing the synchronous one (and leaves no
    // temporary file behind: the directory is removed after each test).
    await background;
    await store.whenIdle();
    assert.deepEqual(new ActionLogStore(dir).load('s1')!.changes.map((c) => c.path), ['/w/a.txt']);
    assert.deepEqual(fs.readdirSync(dir).filter((name) => name.endsWith('.tmp')), []);
  });

  it('does not write a log again that did not change', () => {
    const log = new ActionLog();
    log.beginTurn('s1', 0);
    log.record('s1', '/w/a.txt', 'tool', { kind: 'absent' });
    const store = new ActionLogStore(dir);
    store.save('s1', log.serialize('s1')!);
    const file = path.join(dir, 's1.json');
    fs.writeFileSync(file, 'changed behind our back');
    store.save('s1', log.serialize('s1')!);
    assert.equal(fs.readFileSync(file, 'utf8'), 'changed behind our back');
    log.record('s1', '/w/b.txt', 'tool', { kind: 'absent' });
    store.save('s1', log.serialize('s1')!);
    assert.deepEqual(store.load('s1')!.changes.map((c) => c.path), ['/w/a.txt', '/w/b.txt']);
  });

  it('reads nothing from a missing or damaged file rather than failing', () => {
    const store = new ActionLogStore(dir);
    assert.equal(store.load('nope'), undefined);
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"version": 1, "changes": [');
    assert.equal(store.load('bad'), undefined);
  });
});
