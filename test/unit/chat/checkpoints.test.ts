import * as assert from 'node:assert/strict';
import { SessionState } from '../../../src/extension/session/model/sessionState';
import { ChatTranscript } from '../../../src/extension/chat/model/chatViewModel';
import { CHAT_PROTOCOL_VERSION, parseWebviewMessage } from '../../../src/protocol/chat';

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('chat: checkpoints on user messages', () => {
  it('numbers the turns of prompts that arrive in patches, cut ones too, and again after a reset', () => {
    const state = new SessionState({ sessionId: 's1', cwd: '/p', schedule: () => undefined });
    const chat = new ChatTranscript(state, { callTitle: (c) => c.title, turnChanges: () => '' });
    const turnsOf = (changes: readonly { index: number; item?: unknown }[]) =>
      changes.flatMap((c) => (c.item && (c.item as { role?: string }).role === 'user' ? [[c.index, (c.item as { turn?: number }).turn]] : []));
    state.recordPrompt([text('first')]);
    assert.deepEqual(turnsOf(chat.all().map((item, index) => ({ index, item }))), [[0, 0]]);
    for (let i = 1; i <= 5; i++) {
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text(`answer ${i}`) });
      state.recordPrompt([text(`prompt ${i}`)]);
    }
    // A patch cut after every second item: the rest comes with the next ones.
    const seen: (number | undefined)[][] = [];
    let looked = 0;
    for (let patch = chat.patch([], { stop: () => ++looked % 2 === 0 }); ; patch = chat.patch([], { stop: () => ++looked % 2 === 0 })) {
      seen.push(...turnsOf(patch.changed as { index: number; item?: unknown }[]));
      if (!patch.more) break;
    }
    assert.deepEqual(seen, [[2, 1], [4, 2], [6, 3], [8, 4], [10, 5]]);
    assert.deepEqual(turnsOf(chat.all().map((item, index) => ({ index, item }))), [[0, 0], [2, 1], [4, 2], [6, 3], [8, 4], [10, 5]]);
  });

  it('marks each prompt with its turn and the summary of what the agent changed in it', () => {
    const state = new SessionState({ sessionId: 's1', cwd: '/p', schedule: () => undefined });
    const summaries = new Map<number, string>([[1, '2 files, +3 −1']]);
    const chat = new ChatTranscript(state, { callTitle: (c) => c.title, turnChanges: (turn) => (turn <= 1 ? (summaries.get(turn) ?? '') : undefined) });
    state.recordPrompt([text('first')]);
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('ok') });
    state.recordPrompt([text('second')]);
    state.recordPrompt([text('third')]);
    const items = chat.all();
    assert.deepEqual(items[0], { kind: 'message', role: 'user', text: 'first', attachments: [], turn: 0, changes: '' });
    assert.deepEqual(items[2], { kind: 'message', role: 'user', text: 'second', attachments: [], turn: 1, changes: '2 files, +3 −1' });
    assert.deepEqual(items[3], { kind: 'message', role: 'user', text: 'third', attachments: [], turn: 2 }, 'nothing to restore after the last change: its turn alone, for Edit & resend');

    // An undo changes the first turn's summary: only its prompt is sent again.
    summaries.set(0, '1 file, +9 −9');
    const refreshed = chat.refreshTurns();
    assert.deepEqual(refreshed.changed.map((c) => c.index), [0]);
    const change = refreshed.changed[0];
    assert.ok(change && 'item' in change, 'a changed summary sends the whole item');
    assert.equal(change.item.kind === 'message' && change.item.changes, '1 file, +9 −9');
  });

  it('accepts a restore, review or edit & resend of a turn from the webview, and nothing else', () => {
    const v = CHAT_PROTOCOL_VERSION;
    assert.deepEqual(parseWebviewMessage({ v, type: 'restoreCheckpoint', turn: 2 }), { ok: true, message: { v, type: 'restoreCheckpoint', turn: 2 } });
    assert.deepEqual(parseWebviewMessage({ v, type: 'reviewTurn', turn: 0 }), { ok: true, message: { v, type: 'reviewTurn', turn: 0 } });
    assert.equal(parseWebviewMessage({ v, type: 'restoreCheckpoint', turn: -1 }).ok, false);
    assert.equal(parseWebviewMessage({ v, type: 'restoreCheckpoint', turn: '1' }).ok, false);
    assert.deepEqual(parseWebviewMessage({ v, type: 'resend', turn: 1, text: 'edited' }), { ok: true, message: { v, type: 'resend', turn: 1, text: 'edited' } });
    assert.equal(parseWebviewMessage({ v, type: 'resend', turn: 1 }).ok, false);
    assert.equal(parseWebviewMessage({ v, type: 'resend', turn: -2, text: 'x' }).ok, false);
  });
});
