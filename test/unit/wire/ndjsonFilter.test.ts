import * as assert from 'node:assert/strict';
import { JsonLineFilter, LineTooLongError, SKIPPED_PREFIX_BYTES, type JsonLine } from '../../../src/extension/wire/ndjsonFilter';

const bytes = (s: string) => new TextEncoder().encode(s);
/** The lines, each with a newline after it. */
const text = (lines: JsonLine[]) => lines.map((l) => `${typeof l === 'string' ? l : new TextDecoder().decode(l)}\n`).join('');

describe('JSON line filter (agent stdout)', () => {
  it('passes JSON-RPC lines and skips banners and debug prints', () => {
    const skipped: string[] = [];
    const f = new JsonLineFilter((l) => skipped.push(l));
    const out = f.push(bytes('Starting agent v1.2…\n{"jsonrpc":"2.0","id":1,"result":{}}\nDEBUG: x\n'));
    assert.equal(text(out), '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    assert.deepEqual(skipped, ['Starting agent v1.2…', 'DEBUG: x']);
  });

  it('reassembles a message split across chunks, including a multi-byte character', () => {
    const f = new JsonLineFilter(() => assert.fail('nothing to skip'));
    const all = bytes('{"text":"漢字"}\n');
    assert.equal(text(f.push(all.slice(0, 10))), '');
    assert.equal(text(f.push(all.slice(10))), '{"text":"漢字"}\n');
  });

  it('accepts CRLF line ends and surrounding blanks, and flushes a last unterminated line', () => {
    const f = new JsonLineFilter(() => undefined);
    assert.equal(text(f.push(bytes('  {"a":1} \r\n\n{"b":2}'))), '{"a":1}\n');
    assert.equal(text(f.end()), '{"b":2}\n');
  });

  it('skips a huge non-JSON line in linear time, keeping only a prefix for the log', () => {
    const skipped: [string, number][] = [];
    const f = new JsonLineFilter((prefix, size) => skipped.push([prefix, size]));
    const chunk = new Uint8Array(64 * 1024).fill(0x78); // 'x'
    const chunks = 512; // 32 MiB: quadratic joining took seconds here, linear takes milliseconds
    const started = process.hrtime.bigint();
    for (let i = 0; i < chunks; i++) assert.deepEqual(f.push(chunk), []);
    const out = f.push(bytes('\n{"after":true}\n'));
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.equal(text(out), '{"after":true}\n', 'the next message still arrives');
    assert.equal(skipped.length, 1);
    assert.equal(skipped[0][0], 'x'.repeat(SKIPPED_PREFIX_BYTES));
    assert.equal(skipped[0][1], chunks * chunk.length);
    // Generous: linear is ~10 ms; the old string concatenation took many seconds.
    assert.ok(ms < 2000, `took ${ms} ms`);
  });

  it('refuses a JSON line over the limit as soon as it is over, instead of holding it', () => {
    const f = new JsonLineFilter(() => undefined, 1000);
    assert.deepEqual(f.push(bytes('{"pad":"' + 'x'.repeat(900))), []);
    assert.throws(() => f.push(bytes('x'.repeat(200))), (e: unknown) => e instanceof LineTooLongError && /larger than 1000 bytes/.test(e.message));
  });

  it('skips a line that starts like JSON but does not end like it', () => {
    const skipped: string[] = [];
    const f = new JsonLineFilter((l) => skipped.push(l));
    assert.equal(text(f.push(bytes('{"partial": \n{"ok":1}\n'))), '{"ok":1}\n');
    assert.deepEqual(skipped, ['{"partial": ']);
  });
});
