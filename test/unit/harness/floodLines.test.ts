import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { FLOOD_LAST_LINE, floodChunk, floodMessagesWriterScript, isFloodTail } from '../../../harness/agents/lib/floodLines';

// The check the flood benchmarks and tests rely on to say "the tail is intact" must itself fail
// when the tail is not.
describe('flood lines (benchmark support)', () => {
  const total = 64 * 128;
  const flood = floodChunk(0, total, total);

  it('makes numbered 128-byte lines ending with the marker, the same in any pieces', () => {
    assert.equal(flood.length, total);
    assert.ok(flood.endsWith(FLOOD_LAST_LINE));
    assert.equal(floodChunk(0, 32 * 128, total) + floodChunk(32 * 128, 32 * 128, total), flood);
  });

  it('accepts the exact tail, cut anywhere in its first line, with LF or CRLF', () => {
    for (const keep of [128, 129, 1000, 4095, total]) assert.ok(isFloodTail(flood.slice(-keep), total), `kept ${keep}`);
    assert.ok(isFloodTail(flood.slice(-1000).replace(/\n/g, '\r\n'), total, '\r\n'));
  });

  it('refuses a tail with a line missing, changed or out of place, or without the marker', () => {
    const lines = flood.split('\n');
    const without = (i: number) => [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n');
    assert.equal(isFloodTail(without(60), total), false, 'a line missing');
    assert.equal(isFloodTail(flood.replace('0000000050 y', '0000000050 z'), total), false, 'a line changed');
    assert.equal(isFloodTail(flood.slice(0, -FLOOD_LAST_LINE.length), total), false, 'no marker');
    assert.equal(isFloodTail(flood.slice(-1000).replace('y', ''), total), true, 'a shorter first line is still a cut one');
    assert.equal(isFloodTail(flood.slice(-1000, -200) + flood.slice(-128), total), false, 'lines dropped in the middle');
  });

  it('writes the display flood as the agent sends it: one JSON-RPC line per 32 KiB piece, the same bytes in order', () => {
    const mb = 0.25;
    const out = execFileSync(process.execPath, ['-e', floodMessagesWriterScript(mb)], { encoding: 'utf8', maxBuffer: 2 ** 24 });
    const lines = out.split('\n');
    assert.equal(lines.pop(), '', 'every message ends its line');
    const pieces = lines.map((line) => (JSON.parse(line) as { method: string; params: { update: { _meta: { terminal_output: { data: string } } } } }));
    assert.equal(pieces.length, 8);
    assert.ok(pieces.every((message) => message.method === 'session/update'));
    const total = mb * 2 ** 20;
    assert.equal(pieces.map((message) => message.params.update._meta.terminal_output.data).join(''), floodChunk(0, total, total));
  });
});
