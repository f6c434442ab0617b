import * as assert from 'node:assert/strict';
import { CHAT_PROTOCOL_VERSION as v, MAX_PROMPT_CHARS, parseHostMessage, parseWebviewMessage } from '../../../src/protocol/chat';

describe('chat protocol', () => {
  describe('messages from the webview', () => {
    it('accepts every well-formed message and returns only the known fields', () => {
      const good = [
        { v, type: 'ready' },
        { v, type: 'prompt', text: 'hello' },
        { v, type: 'cancel' },
        { v, type: 'answerPermission', questionId: 3, optionKind: 'allow_once' },
        { v, type: 'inspectPermission', questionId: 3 },
        { v, type: 'openToolCall', toolCallId: 'call-1', target: 'editor' },
        { v, type: 'openToolCall', toolCallId: 'call-1', target: 'tree' },
        { v, type: 'setMode', modeId: 'ask' },
        { v, type: 'setConfigOption', configId: 'model', value: 'fast' },
        { v, type: 'attach', what: 'selection' },
        { v, type: 'detach', id: 'a1' },
        { v, type: 'newSession' },
        { v, type: 'history' },
        { v, type: 'pickAgent' },
        { v, type: 'newSessionWithAgent' },
        { v, type: 'switchSession', sessionId: 'b-sess_1' },
        { v, type: 'closeSession', sessionId: 'b-sess_1' },
      ];
      for (const message of good) {
        const parsed = parseWebviewMessage({ ...message, extra: '<script>' });
        assert.ok(parsed.ok, `${message.type}: ${parsed.ok ? '' : parsed.error}`);
        assert.deepEqual(parsed.message, message);
      }
    });

    it('refuses another protocol version, unknown types and non-objects', () => {
      for (const bad of [null, 'ready', [], { type: 'ready' }, { v: v + 1, type: 'ready' }, { v, type: 'eval', code: '1' }, { v }]) {
        assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad));
      }
    });

    it('refuses wrong fields: empty or huge prompts, unknown option kinds, bad ids', () => {
      const bad = [
        { v, type: 'prompt', text: '   ' },
        { v, type: 'prompt', text: 42 },
        { v, type: 'prompt', text: 'x'.repeat(MAX_PROMPT_CHARS + 1) },
        { v, type: 'answerPermission', questionId: '3', optionKind: 'allow_once' },
        { v, type: 'answerPermission', questionId: 1.5, optionKind: 'allow_once' },
        { v, type: 'inspectPermission', questionId: 'x' },
        { v, type: 'answerPermission', questionId: 3, optionKind: 'allow' },
        { v, type: 'openToolCall', toolCallId: '', target: 'editor' },
        { v, type: 'openToolCall', toolCallId: 'c', target: 'terminal' },
        { v, type: 'setMode', modeId: {} },
        { v, type: 'attach', what: 'folder' },
        { v, type: 'detach', id: 'x'.repeat(2000) },
        { v, type: 'switchSession' },
        { v, type: 'switchSession', sessionId: '' },
        { v, type: 'closeSession', sessionId: 7 },
      ];
      for (const message of bad) assert.equal(parseWebviewMessage(message).ok, false, JSON.stringify(message).slice(0, 80));
    });
  });

  describe('messages from the host', () => {
    const status = { agentName: 'a', sessionId: 's', activity: 'idle' };
    const message = { kind: 'message', role: 'agent', text: 'hi', attachments: [] };
    const tool = { kind: 'toolCall', toolCallId: 'c1', title: 'Read x', icon: 'book', status: 'completed' };

    it('accepts reset, patch, status and focusPrompt', () => {
      assert.ok(parseHostMessage({ v, type: 'reset', status, items: [message, tool] }).ok);
      assert.ok(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 1, item: tool }] }).ok);
      assert.ok(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 0, append: ' more text' }] }).ok, 'text a message grew by');
      assert.ok(parseHostMessage({ v, type: 'status', status }).ok);
      assert.ok(parseHostMessage({ v, type: 'focusPrompt' }).ok);
    });

    it('refuses patches that address outside the list and unknown item kinds', () => {
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 1, item: tool }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: -1, item: tool }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 1, append: 'x' }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 0, append: 42 }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 0, item: { kind: 'html', html: '<b>' } }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'reset', status, items: [{ kind: 'message', role: 'system', text: '', attachments: [] }] }).ok, false);
      assert.equal(parseHostMessage({ v: 0, type: 'status', status }).ok, false);
    });
  });

  describe('mentions, images and forms', () => {
    it('accepts well-formed mention, image and form messages', () => {
      for (const message of [
        { v, type: 'mentionQuery', requestId: 1, query: 'gre' },
        { v, type: 'mention', path: 'src/greet.ts', isFolder: false },
        { v, type: 'attachImage', name: 'shot.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { v, type: 'answerElicitation', id: 2, action: 'accept', answers: { name: 'Ada', ok: true } },
      ]) {
        assert.deepEqual(parseWebviewMessage(message), { ok: true, message }, JSON.stringify(message));
      }
    });

    it('refuses paths outside the workspace, non-images, bad base64, oversize images and odd answers', () => {
      for (const bad of [
        { v, type: 'mention', path: '/etc/passwd', isFolder: false },
        { v, type: 'mention', path: 'src/../../x', isFolder: false },
        { v, type: 'attachImage', name: 'x', mimeType: 'text/html', data: 'AAAA' },
        { v, type: 'attachImage', name: 'x', mimeType: 'image/svg+xml', data: 'AAAA' },
        { v, type: 'attachImage', name: 'x', mimeType: 'image/png', data: 'not base64!' },
        { v, type: 'attachImage', name: 'x', mimeType: 'image/png', data: 'A'.repeat(8 * 1024 * 1024) },
        { v, type: 'answerElicitation', id: 1, action: 'maybe', answers: {} },
        { v, type: 'answerElicitation', id: 1, action: 'accept', answers: { n: { nested: 1 } } },
        { v, type: 'mentionQuery', requestId: 'x', query: '' },
      ]) {
        assert.equal(parseWebviewMessage(bad).ok, false, JSON.stringify(bad).slice(0, 80));
      }
    });
  });
});
