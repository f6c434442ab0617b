/**
 * Files through the client: a client that advertises `fs.readTextFile` and `fs.writeTextFile`
 * gets every read, write and edit of the agent as `fs/*` requests, served here by a test "editor"
 * on a real temp folder. The same script run against the local backend must give the same cards
 * and the same bytes on disk; the client's unsaved text is what the agent reads and edits; a
 * refused write fails the call with the client's message and nothing is written behind its back.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { AgentUnderTest } from './harness/agentProcess';
import { cardText, comparable, diffs, fold, type Card } from './harness/cards';
import { EditorFs } from './harness/clientFs';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

const fence = (text: string): string => '```\n' + text + '\n```';
const LONG_FILE = Array.from({ length: 30 }, (_, i) => (i % 10 === 4 ? `// TODO ${i + 1}` : `const line${i + 1} = ${i + 1};`)).join('\n');

/** Run against both backends: creates, overwrites (changed and unchanged), edits, CRLF. */
const SCRIPT = [
  `/write notes/todo.txt\n${fence('first line\nsecond line')}`,
  `/edit src/math.js\n${fence('  return a + b;')}\n${fence('  return a - b;')}`,
  `/write src/long.js\n${fence(LONG_FILE)}`,
  `/edit src/long.js --all\n${fence('TODO')}\n${fence('DONE')}`,
  `/write README.md\n${fence('# Demo workspace\n\nRewritten by the agent.')}`,
  `/edit crlf.txt\n${fence('two')}\n${fence('zwei\ndeux')}`,
  `/edit notes/fresh.txt\n${fence('')}\n${fence('made by edit')}`,
  '/read crlf.txt',
].join('\n');
const TOUCHED = ['notes/todo.txt', 'src/math.js', 'src/long.js', 'README.md', 'crlf.txt', 'notes/fresh.txt', 'package.json'];

describe('files through the client (fs/* capability)', function () {
  this.timeout(30_000);
  let local: { agent: AgentUnderTest; ws: string; cards: Card[] };
  let client: { agent: AgentUnderTest; ws: string; cards: Card[]; sessionId: string; stateDir: string };
  let editor: EditorFs;
  const at = (rel: string): string => path.join(client.ws, rel);
  const run = async (text: string): Promise<Card[]> => fold((await client.agent.prompt(client.sessionId, text)).updates).cards;

  before(async () => {
    const prepare = (): string => {
      const ws = tempWorkspace();
      writeFileSync(path.join(ws, 'crlf.txt'), 'one\r\ntwo\r\nthree\r\n');
      return ws;
    };
    // An unchanged overwrite: the whole file, as it is.
    const unchanged = `/write package.json\n${fence(readFileSync(path.join(prepare(), 'package.json'), 'utf8').replace(/\n$/, ''))}`;
    const script = `${SCRIPT}\n${unchanged}`;

    const localWs = prepare();
    const localAgent = await AgentUnderTest.start({ stateDir: tempDir('state'), terminalOutput: false });
    const localSession = (await localAgent.newSession(localWs)).sessionId;
    local = { agent: localAgent, ws: localWs, cards: fold((await localAgent.prompt(localSession, script)).updates).cards };

    const ws = prepare();
    const stateDir = tempDir('state');
    editor = new EditorFs(ws);
    const agent = await AgentUnderTest.start({ stateDir, terminalOutput: false, fs: editor });
    const sessionId = (await agent.newSession(ws)).sessionId;
    client = { agent, ws, stateDir, sessionId, cards: fold((await agent.prompt(sessionId, script)).updates).cards };
  });

  after(async () => {
    await local.agent.stop();
    await client.agent.stop();
    removeTempDirs();
  });

  it('gives the same cards, call time and applied hunks, as the local backend', () => {
    const portable = (cards: Card[], ws: string): unknown =>
      JSON.parse(JSON.stringify(cards.map((c) => ({ ...comparable(c), toolCallId: '' }))).split(ws).join('<ws>'));
    assert.equal(client.cards.length, 9);
    assert.ok(client.cards.every((c) => c.status === 'completed'), JSON.stringify(client.cards.map((c) => [c.title, c.status])));
    assert.deepEqual(portable(client.cards, client.ws), portable(local.cards, local.ws));
    // Spot checks of what is compared: a CRLF edit's LF hunk, a create via edit.
    assert.deepEqual(diffs(client.cards[5]!), [{ type: 'diff', path: at('crlf.txt'), oldText: 'one\ntwo\nthree', newText: 'one\nzwei\ndeux\nthree' }]);
    assert.deepEqual(diffs(client.cards[6]!), [{ type: 'diff', path: at('notes/fresh.txt'), oldText: null, newText: 'made by edit' }]);
  });

  it('leaves the same bytes on disk as the local backend (line endings kept by the client)', () => {
    for (const rel of TOUCHED) {
      assert.equal(readFileSync(at(rel), 'utf8'), readFileSync(path.join(local.ws, rel), 'utf8'), rel);
    }
    assert.equal(readFileSync(at('crlf.txt'), 'utf8'), 'one\r\nzwei\r\ndeux\r\nthree\r\n');
  });

  it('sent every read and write to the client, with LF text', () => {
    const writes = editor.calls.filter((c) => c.method === 'write').map((c) => c.params.path);
    assert.deepEqual(writes, ['notes/todo.txt', 'src/math.js', 'src/long.js', 'src/long.js', 'README.md', 'crlf.txt', 'notes/fresh.txt', 'package.json'].map(at));
    // The edit sends the whole new text, in LF: the client keeps the file's endings.
    assert.equal(editor.writesTo(at('crlf.txt'))[0]?.content, 'one\nzwei\ndeux\nthree\n');
    const reads = editor.calls.filter((c) => c.method === 'read');
    assert.ok(reads.some((c) => c.params.path === at('crlf.txt')), 'the read tool reads through the client');
    for (const call of editor.calls) assert.equal(call.params.sessionId, client.sessionId);
  });

  it('reads the client\'s unsaved text, and edits on top of it through the client', async () => {
    const greet = at('src/greet.ts');
    const onDisk = readFileSync(greet, 'utf8');
    editor.unsaved.set(greet, 'export const unsaved = 1;\nexport const more = 2;\n');
    const [read] = await run('/read src/greet.ts');
    assert.equal(read?.status, 'completed');
    assert.equal(cardText(read!), '```\n1\texport const unsaved = 1;\n2\texport const more = 2;\n```');
    assert.equal(readFileSync(greet, 'utf8'), onDisk);

    const [edit] = await run(`/edit src/greet.ts\n${fence('unsaved = 1')}\n${fence('unsaved = 3')}`);
    assert.equal(edit?.status, 'completed');
    assert.deepEqual(diffs(edit!), [
      { type: 'diff', path: greet, oldText: 'export const unsaved = 1;\nexport const more = 2;', newText: 'export const unsaved = 3;\nexport const more = 2;' },
    ]);
    assert.deepEqual(editor.writesTo(greet).map((w) => w.content), ['export const unsaved = 3;\nexport const more = 2;\n']);
    // Written (and saved) by the client's handler, not by the agent.
    assert.equal(readFileSync(greet, 'utf8'), 'export const unsaved = 3;\nexport const more = 2;\n');
  });

  it('fails a write or edit the client refuses, with the client\'s message, and writes nothing', async () => {
    const math = at('src/math.js');
    const onDisk = readFileSync(math, 'utf8');
    const refusal = 'src/math.js has unsaved changes that the user chose to keep; the file was not written.';
    editor.unsaved.set(math, 'function add(a, b) { return a * b; } // mine\n');
    editor.refusals.set(math, refusal);
    try {
      const cards = await run([`/edit src/math.js\n${fence('a * b')}\n${fence('a / b')}`, `/write src/math.js\n${fence('replaced')}`, '/read src/math.js'].join('\n'));
      assert.deepEqual(cards.map((c) => c.status), ['failed', 'failed', 'completed']);
      for (const card of cards.slice(0, 2)) {
        assert.equal(cardText(card), `Could not write ${math} through the client: Invalid request: ${refusal}`);
        assert.deepEqual(diffs(card), []);
      }
      assert.equal(editor.writesTo(math).length, 1 + 2, 'both attempts went to the client');
      assert.equal(readFileSync(math, 'utf8'), onDisk);
      assert.equal(editor.unsaved.get(math), 'function add(a, b) { return a * b; } // mine\n');
      assert.match(cardText(cards[2]!), /\/\/ mine/);
    } finally {
      editor.refusals.delete(math);
      editor.unsaved.delete(math);
    }
  });

  it('fails on any other client error instead of falling back to the disk', async () => {
    const outside = path.join(path.dirname(client.ws), `outside-${path.basename(client.ws)}.txt`);
    const cards = await run([`/write ${outside}\n${fence('escaped')}`, `/edit ${outside}\n${fence('')}\n${fence('escaped')}`, `/read ${outside}`].join('\n'));
    assert.deepEqual(cards.map((c) => c.status), ['failed', 'failed', 'failed']);
    for (const card of cards) {
      assert.match(cardText(card), new RegExp(`^Could not read .* through the client: Invalid params: .* is outside the workspace; the agent may not read it\\.$`));
    }
    assert.equal(existsSync(outside), false);
    assert.equal(editor.writesTo(outside).length, 0);
  });

  it('treats a client "binary" answer as binary: edit refuses, write goes to the client; folders and missing files fail', async () => {
    const blob = at('blob.bin');
    writeFileSync(blob, Buffer.from([0x00, 0x01, 0x02, 0x00]));
    const cards = await run(
      [`/edit blob.bin\n${fence('a')}\n${fence('b')}`, `/write blob.bin\n${fence('text now')}`, '/read src', '/read missing.txt', `/edit missing.txt\n${fence('a')}\n${fence('b')}`].join('\n'),
    );
    assert.deepEqual(cards.map((c) => c.status), ['failed', 'completed', 'failed', 'failed', 'failed']);
    assert.match(cardText(cards[0]!), /^Refusing to edit .*blob\.bin: it is binary or not UTF-8 text \(Invalid params: .* is a binary file; it cannot be read as text\.\)\. Use write to replace it whole\.$/);
    assert.deepEqual(diffs(cards[1]!), [{ type: 'diff', path: blob, oldText: null, newText: 'text now\n' }]);
    assert.equal(editor.writesTo(blob).length, 1);
    assert.equal(readFileSync(blob, 'utf8'), 'text now\n');
    assert.equal(cardText(cards[2]!), `${at('src')} is a directory, not a file.`);
    assert.equal(cardText(cards[3]!), `File not found: ${at('missing.txt')}`);
    assert.equal(cardText(cards[4]!), `File not found: ${at('missing.txt')}`);
  });

  it('keeps the line endings it read through a client that serves raw text and saves what it is given', async () => {
    const ws = tempWorkspace();
    writeFileSync(path.join(ws, 'mixed.txt'), 'one\r\ntwo\r\nthree\nfour\r\n');
    writeFileSync(path.join(ws, 'crlf.txt'), '\uFEFFa\r\nb\r\n');
    const raw = new EditorFs(ws, { raw: true });
    const agent = await AgentUnderTest.start({ stateDir: tempDir('state'), terminalOutput: false, fs: raw });
    try {
      const sessionId = (await agent.newSession(ws)).sessionId;
      const script = [`/edit mixed.txt\n${fence('two')}\n${fence('zwei\ndeux')}`, `/write crlf.txt\n${fence('x\ny')}`].join('\n');
      const cards = fold((await agent.prompt(sessionId, script)).updates).cards;
      assert.deepEqual(cards.map((c) => c.status), ['completed', 'completed']);
      // Every untouched byte kept; the inserted newline takes the dominant ending (CRLF).
      assert.equal(readFileSync(path.join(ws, 'mixed.txt'), 'utf8'), 'one\r\nzwei\r\ndeux\r\nthree\nfour\r\n');
      assert.equal(readFileSync(path.join(ws, 'crlf.txt'), 'utf8'), '\uFEFFx\r\ny\r\n');
      // The cards still show LF text.
      assert.deepEqual(diffs(cards[0]!).map((d) => d.newText), ['one\nzwei\ndeux\nthree\nfour']);
    } finally {
      await agent.stop();
    }
  });

  it('replays the session with the same cards and no fs/* request', async () => {
    const live = fold(client.agent.updates.get(client.sessionId) ?? []);
    const replayEditor = new EditorFs(client.ws);
    const second = await AgentUnderTest.start({ stateDir: client.stateDir, terminalOutput: false, fs: replayEditor });
    try {
      const { updates } = await second.load(client.sessionId, client.ws);
      assert.deepEqual(fold(updates).cards.map(comparable), live.cards.map(comparable));
      assert.deepEqual(replayEditor.calls, []);
      assert.deepEqual(second.validator.errors, []);
    } finally {
      await second.stop();
    }
  });

  it('exchanged only messages that match the ACP schema, fs/* included', () => {
    assert.deepEqual(client.agent.validator.errors, []);
    assert.deepEqual(local.agent.validator.errors, []);
    assert.ok(editor.calls.length > 20);
  });
});
