import * as assert from 'node:assert/strict';
import { CHAT_PROTOCOL_VERSION as v, MAX_PROMPT_CHARS, onlyText, packChanges, packItem, parseHostMessage, parseWebviewMessage, unpackChanges, unpackItem, type ChatChange, type ChatItem } from '../../../src/protocol/chat';

describe('chat protocol', () => {
  describe('messages from the webview', () => {
    it('accepts every well-formed message and returns only the known fields', () => {
      const good = [
        { v, type: 'ready' },
        { v, type: 'prompt', text: 'hello', how: 'send' },
        { v, type: 'prompt', text: 'later', how: 'queue' },
        { v, type: 'queueEdit', id: 'q1-3', text: 'edited' },
        { v, type: 'queueRemove', id: 'q1-3' },
        { v, type: 'queueMove', id: 'q1-3', to: 0 },
        { v, type: 'queueSendNow', id: 'q1-3' },
        { v, type: 'queueResume' },
        { v, type: 'queueClear' },
        { v, type: 'cancel' },
        { v, type: 'answerPermission', questionId: 3, optionKind: 'allow_once', optionId: 'exit-plan-default' },
        { v, type: 'focusChanged', focused: true },
        { v, type: 'inspectPermission', questionId: 3 },
        { v, type: 'reviewHunks', questionId: 3 },
        { v, type: 'rejectWithReason', questionId: 4 },
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
      // An older webview's prompt (no `how`) is a plain send.
      assert.deepEqual(parseWebviewMessage({ v, type: 'prompt', text: 'hi' }), { ok: true, message: { v, type: 'prompt', text: 'hi', how: 'send' } });
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
        { v, type: 'prompt', text: 'x', how: 'steer' },
        { v, type: 'queueEdit', id: 'q1', text: ' ' },
        { v, type: 'queueMove', id: 'q1', to: -1 },
        { v, type: 'queueMove', id: 'q1', to: 1.5 },
        { v, type: 'queueSendNow', id: '' },
        { v, type: 'prompt', text: 'x'.repeat(MAX_PROMPT_CHARS + 1) },
        { v, type: 'answerPermission', questionId: '3', optionKind: 'allow_once' },
        { v, type: 'answerPermission', questionId: 1.5, optionKind: 'allow_once' },
        { v, type: 'inspectPermission', questionId: 'x' },
        { v, type: 'reviewHunks', questionId: 1.5 },
        { v, type: 'answerPermission', questionId: 3, optionKind: 'allow', optionId: 'a' },
        { v, type: 'answerPermission', questionId: 3, optionKind: 'allow_once' },
        { v, type: 'focusChanged', focused: 'yes' },
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
      assert.ok(parseHostMessage({ v, type: 'reset', status, items: [message, ['c1', 'Read x', 'book', 'completed'], ['c2', 'Edit y', 'edit', 'pending', 'diff']] }).ok, 'packed tool rows');
      assert.ok(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 1, items: [tool] }] }).ok);
      assert.ok(parseHostMessage({ v, type: 'patch', length: 3, changed: [{ index: 0, items: [message, ['c1', 'Read x', 'book', 'completed'], tool] }] }).ok, 'a run of items');
      assert.ok(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 0, append: ' more text' }] }).ok, 'text a message grew by');
      assert.ok(parseHostMessage({ v, type: 'status', status }).ok);
      assert.ok(parseHostMessage({ v, type: 'focusPrompt' }).ok);
    });

    it('refuses patches that address outside the list and unknown item kinds', () => {
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 1, items: [tool] }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: -1, items: [tool] }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 1, items: [tool, tool] }] }).ok, false, 'a run past the length');
      assert.equal(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 1, items: [] }] }).ok, false, 'an empty run');
      assert.equal(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 1, item: tool }] }).ok, false, 'the unpacked form of protocol 3');
      assert.equal(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 1, items: [['c1', 'Read x', 'book', 'done']] }] }).ok, false, 'an unknown status');
      assert.equal(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 1, items: [['c1', 'Read x', 'book']] }] }).ok, false, 'a short row');
      assert.equal(parseHostMessage({ v, type: 'patch', length: 2, changed: [{ index: 1, items: [['c1', 'Read x', 'book', 'completed', 'browser']] }] }).ok, false, 'an unknown target');
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 1, append: 'x' }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 0, append: 42 }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 0, items: [{ kind: 'html', html: '<b>' }] }] }).ok, false);
      assert.equal(parseHostMessage({ v, type: 'reset', status, items: [{ kind: 'message', role: 'system', text: '', attachments: [] }] }).ok, false);
      assert.equal(parseHostMessage({ v: 0, type: 'status', status }).ok, false);
    });
  });

  describe('packed items', () => {
    const rows: ChatItem[] = [
      { kind: 'toolCall', toolCallId: 'c1', title: 'Read src/a.ts', icon: 'book', status: 'completed' },
      { kind: 'toolCall', toolCallId: 'c2', title: 'Edit src/b.ts', icon: 'edit', status: 'in_progress', opens: 'diff' },
      { kind: 'toolCall', toolCallId: 'c3', title: 'Screenshot', icon: 'device-camera', status: 'completed', images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }] },
      { kind: 'message', role: 'agent', text: 'done', attachments: [] },
    ];

    it('packs tool rows as tuples and gives back the very items', () => {
      assert.deepEqual(packItem(rows[0]!), ['c1', 'Read src/a.ts', 'book', 'completed']);
      assert.deepEqual(packItem(rows[1]!), ['c2', 'Edit src/b.ts', 'edit', 'in_progress', 'diff']);
      assert.equal(packItem(rows[2]!), rows[2], 'a row with images travels whole');
      assert.equal(packItem(rows[3]!), rows[3]);
      assert.deepEqual(rows.map(packItem).map(unpackItem), rows);
    });

    it('sends consecutive items as one run, keeps appends apart, and unpacks to the same changes', () => {
      const changes: ChatChange[] = [
        { index: 0, append: ' more' },
        { index: 2, item: rows[0]! },
        { index: 3, item: rows[1]! },
        { index: 4, item: rows[2]! },
        { index: 7, item: rows[3]! },
        { index: 8, append: 'x' },
      ];
      const wire = packChanges(changes);
      assert.deepEqual(wire.map((c) => ('items' in c ? [c.index, c.items.length] : [c.index, 'append'])), [[0, 'append'], [2, 3], [7, 1], [8, 'append']]);
      assert.deepEqual(unpackChanges(wire), changes);
      assert.ok(parseHostMessage({ v, type: 'patch', length: 9, changed: wire }).ok);
    });

    it('halves the bytes of a storm of tool rows', () => {
      const changes: ChatChange[] = Array.from({ length: 1000 }, (_, i) => ({ index: i, item: { kind: 'toolCall', toolCallId: `storm_${i}`, title: `Read src/pkg${i % 13}/module${i % 97}.ts`, icon: 'book', status: 'completed' } }));
      const packed = JSON.stringify(packChanges(changes)).length;
      const whole = JSON.stringify(changes).length;
      assert.ok(packed < whole * 0.55, `packed ${packed} bytes, unpacked ${whole}`);
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
  it('carries the window-lag messages: a patch number, its acknowledgement, the progress line', () => {
    assert.ok(parseHostMessage({ v, type: 'patch', length: 0, changed: [], seq: 3 }).ok);
    assert.equal(parseHostMessage({ v, type: 'patch', length: 0, changed: [], seq: 0 }).ok, false);
    assert.equal(parseHostMessage({ v, type: 'patch', length: 0, changed: [], seq: 'x' }).ok, false);
    assert.deepEqual(parseWebviewMessage({ v, type: 'ack', seq: 7 }), { ok: true, message: { v, type: 'ack', seq: 7 } });
    assert.equal(parseWebviewMessage({ v, type: 'ack', seq: -1 }).ok, false);
    assert.equal(parseWebviewMessage({ v, type: 'ack' }).ok, false);
    assert.ok(parseHostMessage({ v, type: 'progress', text: '4,812 calls, showing the newest' }).ok);
    assert.ok(parseHostMessage({ v, type: 'progress', text: null }).ok);
    assert.equal(parseHostMessage({ v, type: 'progress', text: 4812 }).ok, false);
  });

  it('tells a patch of text only (messages added or grown) from one that brings rows', () => {
    const agent: ChatItem = { kind: 'message', role: 'agent', text: 'Hi', attachments: [] };
    const tool: ChatItem = { kind: 'toolCall', toolCallId: 't1', title: 'Read a.ts', icon: 'file', status: 'pending' };
    assert.equal(onlyText([{ index: 3, append: ' there' }]), true);
    assert.equal(onlyText([{ index: 4, item: agent }, { index: 3, append: '!' }]), true);
    assert.equal(onlyText([{ index: 3, append: '!' }, { index: 4, item: tool }]), false);
    // An empty patch (the rest of a cut reset) is the window's work to answer.
    assert.equal(onlyText([]), false);
  });
});
