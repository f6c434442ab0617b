import * as assert from 'node:assert/strict';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { Transcript, type MessageEntry } from '../../../src/extension/session/model/transcript';

const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const image: ContentBlock = { type: 'image', data: 'AAAA', mimeType: 'image/png' };

function onlyMessage(transcript: Transcript): MessageEntry {
  assert.equal(transcript.entries.length, 1);
  const entry = transcript.entries[0];
  assert.equal(entry.type, 'message');
  return entry as MessageEntry;
}

/** Every reading of a message agrees with its text built the plain way. */
function assertReads(message: MessageEntry, expected: string): void {
  assert.equal(message.text, expected);
  assert.equal(message.textLength, expected.length);
  for (const offset of [-5, 0, 1, expected.length >> 1, expected.length - 1, expected.length, expected.length + 3, 2.7]) {
    assert.equal(message.textFrom(offset), expected.slice(Math.max(0, Math.floor(offset))), `textFrom(${offset})`);
  }
  assert.equal(message.textFrom(Number.NaN), expected);
}

describe('Transcript messages', () => {
  it('reads a short message and one grown past the plain-string bound the same way, chunk by chunk', () => {
    const transcript = new Transcript();
    let expected = '';
    // Chunks of growing size: the text crosses 1,024 units mid-stream, with a surrogate pair
    // (one emoji) split across the chunk that crosses it.
    for (let i = 0; expected.length < 5000; i++) {
      const chunk = i === 40 ? '\ud83d' : i === 41 ? '\ude00 after the emoji' : `chunk ${i} `.repeat(1 + (i % 7));
      transcript.appendChunk('agent', text(chunk), 'm1');
      expected += chunk;
      assertReads(onlyMessage(transcript), expected);
    }
    const message = onlyMessage(transcript);
    assert.deepEqual(message.parts, [{ type: 'text', text: expected }]);
    assert.deepEqual(message.blocks, []);
    assert.equal(message.blockCount, 0);
    assert.ok(expected.includes('\ud83d\ude00'));
  });

  it('keeps text runs and blocks in arrival order, before and after the text grows long', () => {
    const transcript = new Transcript();
    const long = 'x'.repeat(1500);
    transcript.appendChunk('agent', text('first '));
    transcript.appendChunk('agent', text('run'));
    transcript.appendChunk('agent', image);
    transcript.appendChunk('agent', text(long));
    transcript.appendChunk('agent', image);
    transcript.appendChunk('agent', text('tail'));
    const message = onlyMessage(transcript);
    assert.deepEqual(message.parts, [
      { type: 'text', text: 'first run' },
      { type: 'block', block: image },
      { type: 'text', text: long },
      { type: 'block', block: image },
      { type: 'text', text: 'tail' },
    ]);
    assert.deepEqual(message.blocks, [image, image]);
    assert.equal(message.blockCount, 2);
    assertReads(message, `first run${long}tail`);
  });

  it('keeps an empty text run and a message of blocks only', () => {
    const transcript = new Transcript();
    transcript.appendChunk('user', text(''));
    transcript.appendChunk('user', image);
    assert.deepEqual(onlyMessage(transcript).parts, [
      { type: 'text', text: '' },
      { type: 'block', block: image },
    ]);
    const blocksOnly = new Transcript();
    blocksOnly.startMessage('user', [image]);
    const message = onlyMessage(blocksOnly);
    assert.deepEqual(message.parts, [{ type: 'block', block: image }]);
    assertReads(message, '');
  });
});
