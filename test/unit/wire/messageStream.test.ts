import * as assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { JsonWorker } from '../../../src/extension/wire/jsonWorker';
import { LineTooLongError } from '../../../src/extension/wire/ndjsonFilter';
import { messageStream, type MessageStreamOptions, type ProtocolTap } from '../../../src/extension/wire/messageStream';
import type { Logger } from '../../../src/extension/base/log';

const encoder = new TextEncoder();

function harness(options: Partial<MessageStreamOptions> = {}) {
  const warnings: string[] = [];
  const log: Logger = {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => warnings.push(m),
    error: (m) => warnings.push(String(m)),
    show: () => undefined,
  };
  const input = new PassThrough();
  const written: string[] = [];
  let ended = false;
  const stream = messageStream({
    name: 'test',
    log,
    input,
    output: { write: (data) => written.push(typeof data === 'string' ? data : new TextDecoder().decode(data)), end: () => (ended = true) },
    ...options,
  });
  const reader = stream.readable.getReader();
  const read = async (count: number): Promise<unknown[]> => {
    const messages: unknown[] = [];
    while (messages.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      messages.push(value);
    }
    return messages;
  };
  return { input, written, warnings, stream, reader, read, ended: () => ended };
}

const note = (n: number, extra: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', method: 'session/update', params: { n, ...extra } });
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

/** A worker that counts what it was given, to see the huge messages took the worker's path. */
class CountingWorker extends JsonWorker {
  parsed = 0;
  stringified = 0;
  override parse(bytes: Uint8Array): Promise<unknown> {
    this.parsed++;
    return super.parse(bytes);
  }
  override stringify(value: unknown): Promise<Uint8Array> {
    this.stringified++;
    return super.stringify(value);
  }
}

describe('messageStream (ACP messages over an agent’s stdio, parsed once)', () => {
  const workers: JsonWorker[] = [];
  after(() => workers.forEach((w) => w.dispose()));
  const worker = () => {
    const w = new CountingWorker();
    workers.push(w);
    return w;
  };

  it('delivers messages split across chunks and with CRLF ends, in order, as parsed objects', async () => {
    const t = harness();
    const all = encoder.encode(`${JSON.stringify(note(1, { text: '漢字' }))}\r\n${line(note(2))}`);
    t.input.write(all.subarray(0, 7));
    t.input.write(all.subarray(7, 40));
    t.input.write(all.subarray(40));
    assert.deepEqual(await t.read(2), [note(1, { text: '漢字' }), note(2)]);
    assert.deepEqual(t.warnings, []);
  });

  it('logs a malformed message clearly, answers it with a parse error and delivers what follows', async () => {
    const t = harness();
    t.input.write(`${line(note(1))}{"jsonrpc":"2.0","method":"session/update","params":{"n":}}\n${line(note(3))}`);
    assert.deepEqual(await t.read(2), [note(1), note(3)]);
    assert.equal(t.warnings.length, 1);
    assert.match(t.warnings[0], /^\[test\] skipped a malformed JSON-RPC message \(\d+ bytes; .+\): \{"jsonrpc":"2.0","method":"session\/update"/);
    const answer = JSON.parse(t.written.join('')) as { id: unknown; error: { code: number } };
    assert.equal(answer.id, null);
    assert.equal(answer.error.code, -32700);
  });

  it('skips and logs non-JSON lines (banners) without answering them', async () => {
    const t = harness();
    t.input.write(`Starting agent…\n${line(note(1))}`);
    assert.deepEqual(await t.read(1), [note(1)]);
    assert.match(t.warnings[0], /^\[test\] skipped non-JSON stdout line \(\d+ bytes\): Starting agent…$/);
    assert.deepEqual(t.written, []);
  });

  it('closes the readable at the end of input, after the last (unterminated) message', async () => {
    const t = harness();
    t.input.end(`${line(note(1))}${JSON.stringify(note(2))}`);
    assert.deepEqual(await t.read(3), [note(1), note(2)]);
    assert.deepEqual(await t.reader.read(), { done: true, value: undefined });
  });

  it('fails the readable with LineTooLongError for a message over the limit, after the messages before it', async () => {
    const t = harness({ maxMessageBytes: 1000 });
    t.input.write(line(note(1)));
    assert.deepEqual(await t.read(1), [note(1)]);
    t.input.write(line(note(2, { text: 'x'.repeat(2000) })));
    await assert.rejects(t.reader.read(), LineTooLongError);
  });

  it('parses a huge message on the worker while later messages wait for it, in order', async () => {
    const w = worker();
    const t = harness({ worker: w, offThreadBytes: 10_000 });
    const huge = note(2, { text: 'é'.repeat(50_000) });
    t.input.write(`${line(note(1))}${line(huge)}${line(note(3))}`);
    t.input.write(line(note(4)));
    assert.deepEqual(await t.read(4), [note(1), huge, note(3), note(4)]);
    assert.equal(w.parsed, 1, 'only the huge line went to the worker');
  });

  it('logs a malformed huge message from the worker and delivers what follows', async () => {
    const w = worker();
    const t = harness({ worker: w, offThreadBytes: 10_000 });
    t.input.write(`{"jsonrpc":"2.0","params":"${'x'.repeat(20_000)}",}\n${line(note(2))}`);
    assert.deepEqual(await t.read(1), [note(2)]);
    assert.equal(w.parsed, 1);
    assert.match(t.warnings[0], /skipped a malformed JSON-RPC message \(20030 bytes; /);
  });

  it('parses on this thread when the worker cannot start', async () => {
    const broken = new JsonWorker(() => {
      throw new Error('no workers here');
    });
    const t = harness({ worker: broken, offThreadBytes: 100 });
    const big = note(1, { text: 'y'.repeat(1000) });
    t.input.write(`${line(big)}${line(note(2))}`);
    assert.deepEqual(await t.read(2), [big, note(2)]);
    assert.equal(broken.available, false);
  });

  it('parses a huge message on this thread when the worker dies with it, and stops using the worker', async () => {
    // A worker that dies on its first job: the job is lost with it, the line is not.
    const dying = new JsonWorker(() => new Worker("require('node:worker_threads').parentPort.on('message', () => process.exit(3))", { eval: true }));
    workers.push(dying);
    const t = harness({ worker: dying, offThreadBytes: 10_000 });
    const huge = note(1, { text: 'w'.repeat(20_000) });
    t.input.write(`${line(huge)}${line(note(2))}`);
    assert.deepEqual(await t.read(2), [huge, note(2)]);
    assert.equal(dying.available, false);
  });

  it('writes one line per message, a huge one serialised on the worker, in the order sent', async () => {
    const w = worker();
    const t = harness({ worker: w, offThreadBytes: 10_000 });
    const writer = t.stream.writable.getWriter();
    const huge = { jsonrpc: '2.0', id: 7, result: { content: 'ü'.repeat(20_000) } };
    const writes = [writer.write(note(1) as never), writer.write(huge as never), writer.write(note(3) as never)];
    await Promise.all(writes);
    assert.deepEqual(t.written.join(''), `${line(note(1))}${line(huge)}${line(note(3))}`);
    assert.equal(w.stringified, 1);
    await writer.close();
    assert.ok(t.ended(), 'closing the writable ends the agent’s stdin');
  });

  it('shows the protocol tap every line both ways, huge ones included (parsed here while it listens)', async () => {
    const lines: [string, string][] = [];
    const tap: ProtocolTap = (direction, text) => lines.push([direction, text]);
    const w = worker();
    const t = harness({ tap, worker: w, offThreadBytes: 10_000 });
    const huge = note(2, { text: 'z'.repeat(20_000) });
    t.input.write(`${line(note(1))}\r\n${line(huge)}`);
    assert.deepEqual(await t.read(2), [note(1), huge]);
    await t.stream.writable.getWriter().write(note(3) as never);
    assert.deepEqual(lines, [
      ['receive', JSON.stringify(note(1))],
      ['receive', JSON.stringify(huge)],
      ['send', JSON.stringify(note(3))],
    ]);
    assert.equal(w.parsed, 0, 'the tap needs the text: decoded and parsed here');
  });
});
