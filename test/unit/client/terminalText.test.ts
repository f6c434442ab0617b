import * as assert from 'node:assert/strict';
import { CrlfConverter, describeCommandEnd } from '../../../src/extension/core/terminalText';

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

  it('describes how a command ended', () => {
    assert.equal(describeCommandEnd({ exitCode: 3, signal: null }), 'exit code 3');
    assert.equal(describeCommandEnd({ exitCode: null, signal: 'SIGTERM' }), 'killed by SIGTERM');
    assert.equal(describeCommandEnd({ exitCode: null, signal: null }), 'ended');
  });
});
