import * as assert from 'node:assert/strict';
import { CrlfConverter, PendingOutput, PIECE_CHARS, describeCommandEnd } from '../../../../src/extension/cards/terminal/model/terminalText';

describe('terminal text', () => {
  it('turns bare newlines into CRLF and keeps existing CRLF', () => {
    const c = new CrlfConverter();
    assert.equal(c.convert('a\nb\r\nc\n\n'), 'a\r\nb\r\nc\r\n\r\n');
    assert.equal(c.atLineStart, true);
  });

  it('does not double a CRLF split across chunks', () => {
    const c = new CrlfConverter();
    assert.equal(c.convert('one\r') + c.convert('\ntwo'), 'one\r\ntwo');
    assert.equal(c.atLineStart, false);
  });

  it('converts a newline at the start of a chunk after text', () => {
    const c = new CrlfConverter();
    assert.equal(c.convert('one') + c.convert('\ntwo'), 'one\r\ntwo');
  });

  it('converts a flood in linear time', () => {
    const c = new CrlfConverter();
    const chunk = 'a line of output\n'.repeat(4096);
    const started = process.hrtime.bigint();
    let size = 0;
    for (let i = 0; i < 300; i++) size += c.convert(chunk).length; // ~20 MB
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.equal(size, 300 * (chunk.length + 4096));
    assert.ok(ms < 3000, `took ${ms} ms`);
  });

  it('reports output its writer skipped where the gap is, dropping what was pending before it', () => {
    const pending = new PendingOutput(10);
    pending.push('old');
    pending.skip(25);
    pending.push('newest');
    assert.equal(pending.take(), '\x1b[0m\r\n\x1b[2m[… 28 characters of output not shown …]\x1b[0m\r\nnewest');
    pending.skip(0);
    assert.ok(pending.isEmpty, 'skipping nothing leaves nothing to deliver');
    pending.skip(5);
    assert.equal(pending.isEmpty, false, 'a skip alone is still news for the panel');
    assert.match(pending.take(), /\[… 5 characters of output not shown …\]/);
  });

  it('keeps only the newest output for a busy or closed panel and says how much it skipped', () => {
    const pending = new PendingOutput(10);
    pending.push('0123456789');
    pending.push('abcde');
    assert.equal(pending.take(), '\x1b[0m\r\n\x1b[2m[… 5 characters of output not shown …]\x1b[0m\r\n56789abcde');
    assert.ok(pending.isEmpty);
    pending.push('xyz');
    assert.equal(pending.take(), 'xyz', 'no note when nothing was skipped since');
  });

  it('says whether its last delivery left output out (a flood: the panel is then given it less often)', () => {
    const pending = new PendingOutput(10);
    assert.equal(pending.overflowed, false);
    pending.push('0123456789abc');
    pending.take();
    assert.equal(pending.overflowed, true, 'characters were dropped');
    pending.push('short');
    pending.take();
    assert.equal(pending.overflowed, false, 'it all fitted');
    pending.pushBytes(new TextEncoder().encode('0123456789abcdef'));
    pending.take();
    assert.equal(pending.overflowed, true, 'bytes were dropped undecoded');
    pending.skip(3);
    pending.take();
    assert.equal(pending.overflowed, true, 'its writer skipped output');
  });

  it('gives only the newest characters asked for (a flood\'s live tail), saying how much it left out', () => {
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const pending = new PendingOutput(20);
    pending.push('0123456789');
    assert.equal(pending.overflowing, false, 'all of it fits');
    assert.equal(pending.take(4), '\x1b[0m\r\n\x1b[2m[… 6 characters of output not shown …]\x1b[0m\r\n6789');
    assert.equal(pending.overflowed, true);
    pending.pushBytes(utf8('abcdefghij漢'));
    assert.equal(pending.take(5), '\x1b[0m\r\n\x1b[2m[… 8 bytes of output not shown …]\x1b[0m\r\nij漢', 'bytes: the newest 5, from a character on');
    pending.pushBytes(utf8('x'.repeat(25)));
    assert.equal(pending.overflowing, true, 'more came than it keeps');
    assert.equal(pending.take(), '\x1b[0m\r\n\x1b[2m[… 5 bytes of output not shown …]\x1b[0m\r\n' + 'x'.repeat(20), 'no limit: all it keeps');
    assert.equal(pending.overflowing, false);
    pending.push('short');
    assert.equal(pending.take(10), 'short', 'under the limit: no note');
  });

  it('stays in a flood until a live tail holds all that came, even once less comes than it keeps', () => {
    const pending = new PendingOutput(20);
    assert.equal(pending.flooding, false);
    pending.push('x'.repeat(25));
    assert.equal(pending.flooding, true, 'more came than it keeps');
    pending.take(4);
    pending.push('y'.repeat(10));
    assert.equal(pending.overflowing, false, 'this time all of it was kept');
    assert.equal(pending.flooding, true, 'but the last delivery left output out');
    assert.equal(pending.take(4), '\x1b[0m\r\n\x1b[2m[… 6 characters of output not shown …]\x1b[0m\r\nyyyy');
    pending.push('zzz');
    assert.equal(pending.flooding, true);
    assert.equal(pending.take(4), 'zzz', 'it fits the live tail: given whole');
    assert.equal(pending.flooding, false, 'the flood is over');
  });

  it('keeps a process\'s bytes undecoded until taken, decoding a character split between pushes whole', () => {
    const pending = new PendingOutput(100);
    const bytes = new TextEncoder().encode('é漢\n');
    pending.push('header\r\n');
    for (let i = 0; i < bytes.length; i++) pending.pushBytes(bytes.subarray(i, i + 1));
    assert.equal(pending.isEmpty, false);
    assert.equal(pending.take(), 'header\r\né漢\n');
    pending.pushBytes(new TextEncoder().encode('😀').subarray(0, 2));
    pending.endBytes();
    assert.equal(pending.take(), '\ufffd', 'an unfinished character at the end shows as U+FFFD');
  });

  it('skips a byte flood undecoded, keeping its newest bytes from a character on, and says how many bytes it skipped', () => {
    const pending = new PendingOutput(10);
    const utf8 = (text: string) => new TextEncoder().encode(text);
    pending.push('old text');
    pending.pushBytes(utf8('0123456789'));
    pending.pushBytes(utf8('ab漢字')); // 18 bytes pushed, 10 kept
    assert.equal(pending.take(), '\x1b[0m\r\n\x1b[2m[… 8 bytes and 8 characters of output not shown …]\x1b[0m\r\n89ab漢字');
    assert.ok(pending.isEmpty);
    pending.pushBytes(utf8('漢字漢x'));
    pending.pushBytes(utf8('y')); // the limit cuts the first 漢: its other two bytes are skipped too
    assert.equal(pending.take(), '\x1b[0m\r\n\x1b[2m[… 3 bytes of output not shown …]\x1b[0m\r\n字漢xy');
  });

  it('gives a flood\'s newest output in parts of at most 32 Ki characters, the same text take() gives, characters whole across parts', () => {
    const maxChars = 128 * 1024;
    const utf8 = (text: string) => new TextEncoder().encode(text);
    // Raw bytes (a client terminal): 3-byte characters, so every 32 KiB part cuts one in two.
    const han = new PendingOutput(maxChars);
    const hanText = '漢'.repeat(100_000);
    han.pushBytes(utf8(hanText));
    const hanTwin = new PendingOutput(maxChars);
    hanTwin.pushBytes(utf8(hanText));
    const [hanNote, ...hanParts] = han.takePieces();
    assert.match(hanNote, /\[… \d+ bytes of output not shown …\]/);
    assert.equal(hanParts.join(''), '漢'.repeat(Math.floor(maxChars / 3)), 'the newest whole characters, none broken where a part ends');
    assert.equal(hanNote + hanParts.join(''), hanTwin.take());
    // Text (a display terminal's 32 KB messages) and ASCII bytes: no part over the limit either.
    const flood = new PendingOutput(maxChars);
    for (let i = 0; i < 5; i++) flood.push(String(i).repeat(32 * 1024));
    flood.pushBytes(utf8('x'.repeat(200_000)));
    const floodParts = flood.takePieces();
    assert.equal(floodParts.slice(1).join(''), 'x'.repeat(maxChars));
    for (const parts of [hanParts, floodParts.slice(1)]) {
      assert.ok(parts.length > 1, 'more than one part');
      for (const part of parts) assert.ok(part.length <= PIECE_CHARS, `a part of ${part.length} characters`);
    }
  });

  it('describes how a command ended', () => {
    assert.equal(describeCommandEnd({ exitCode: 3, signal: null }), 'exit code 3');
    assert.equal(describeCommandEnd({ exitCode: null, signal: 'SIGTERM' }), 'killed by SIGTERM');
    assert.equal(describeCommandEnd({ exitCode: null, signal: null }), 'ended');
  });
});
