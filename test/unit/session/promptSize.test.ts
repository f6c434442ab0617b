import * as assert from 'node:assert/strict';
import {
  blocksBytes,
  checkAttachmentSize,
  checkPromptSize,
  DEFAULT_PROMPT_MAX_BYTES,
  formatBytes,
  promptLimit,
  PROMPT_MAX_BYTES_CEILING,
  utf8Bytes,
} from '../../../src/extension/session/model/promptSize';

describe('prompt size', () => {
  it('counts UTF-8 bytes as the wire carries them, without encoding', () => {
    for (const text of ['', 'plain', 'é', '€', '😀', 'a😀b€é', '\ud800 lone surrogate']) {
      assert.equal(utf8Bytes(text), Buffer.byteLength(text, 'utf8'), JSON.stringify(text));
    }
  });

  it('counts the JSON escapes a prompt grows by', () => {
    const quoted = '"'.repeat(1000);
    assert.ok(blocksBytes([{ type: 'text', text: quoted }]) > 2000, 'each quote travels as \\"');
  });

  it('lets a prompt under the limit through and refuses one over it with both sizes', () => {
    assert.equal(checkPromptSize([{ name: 'the text', blocks: [{ type: 'text', text: 'hello' }] }], 1024), undefined);
    const big = 'x'.repeat(9 * 1024 * 1024);
    const refused = checkPromptSize([{ name: 'the text', blocks: [{ type: 'text', text: big }] }], DEFAULT_PROMPT_MAX_BYTES);
    assert.ok(refused);
    assert.match(refused.message, /The prompt is 9 MiB, over the limit of 8 MiB \(acpNative\.prompt\.maxBytes\): nothing was sent/);
  });

  it('names the largest part when text and attachments together are over', () => {
    const refused = checkPromptSize(
      [
        { name: 'the text', blocks: [{ type: 'text', text: 'x'.repeat(40_000) }] },
        { name: 'server.log', blocks: [{ type: 'resource', resource: { uri: 'file:///server.log', text: 'y'.repeat(100_000) } }] },
      ],
      100_000,
    );
    assert.equal(refused?.largest?.name, 'server.log');
    assert.match(refused!.message, /the largest part: server\.log, 97\.\d KiB/);
  });

  it('refuses an attachment alone over the limit when attached', () => {
    assert.equal(checkAttachmentSize('a.txt', [{ type: 'text', text: 'small' }], 1024), undefined);
    assert.match(checkAttachmentSize('dump.sql', [{ type: 'text', text: 'z'.repeat(2048) }], 1024)!.message, /dump\.sql is 2 KiB, over the prompt limit of 1 KiB.*not attached/);
  });

  it('keeps the setting within bounds, and a bad value is the default', () => {
    assert.equal(promptLimit(undefined), DEFAULT_PROMPT_MAX_BYTES);
    assert.equal(promptLimit('8MB'), DEFAULT_PROMPT_MAX_BYTES);
    assert.equal(promptLimit(1e12), PROMPT_MAX_BYTES_CEILING, 'never up to the agents\' 32 MiB line limit');
    assert.equal(promptLimit(1), 64 * 1024);
    assert.ok(DEFAULT_PROMPT_MAX_BYTES < 32 * 1024 * 1024);
  });

  it('formats sizes for people', () => {
    assert.equal(formatBytes(900), '900 bytes');
    assert.equal(formatBytes(1536), '1.5 KiB');
    assert.equal(formatBytes(8 * 1024 * 1024), '8 MiB');
  });
});
