import * as assert from 'node:assert/strict';
import { SessionState } from '../../../src/extension/session/model/sessionState';
import { ChatTranscript, changeBytes } from '../../../src/extension/chat/model/chatViewModel';
import { MAX_CARD_CHARS, tokensLabel } from '../../../src/extension/chat/model/chatEvents';
import { applyChatPatch, parseHostMessage, CHAT_PROTOCOL_VERSION, type ChatItem } from '../../../src/protocol/chat';

const text = (t: string) => ({ type: 'text' as const, text: t });
const newState = () => new SessionState({ sessionId: 's1', cwd: '/p', schedule: () => undefined });
const view = (state: SessionState) => new ChatTranscript(state, { callTitle: (call) => call.title, displayPath: (p) => p.replace('/p/', '') });

describe('chat items of plans, compactions and notices', () => {
  it('a plan card: built where the plan came, replaced in place by a patch, emptied when removed', () => {
    const state = newState();
    state.recordPrompt([text('plan it')]);
    state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'plan-mode', content: '# Plan\n\n1. Read' } });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Ready.') });
    const chat = view(state);
    const items = chat.all();
    assert.deepEqual(items[1], { kind: 'plan', planId: 'plan-mode', planType: 'markdown', text: '# Plan\n\n1. Read', openable: true });
    assert.deepEqual(chat.patch([]).changed, [], 'nothing changed, nothing sent');
    state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'plan-mode', content: '# Plan\n\n1. Read\n2. Edit' } });
    const replaced = chat.patch([]);
    assert.deepEqual(replaced.changed, [{ index: 1, item: { kind: 'plan', planId: 'plan-mode', planType: 'markdown', text: '# Plan\n\n1. Read\n2. Edit', openable: true } }]);
    applyChatPatch(items, replaced.length, replaced.changed);
    assert.equal(items.length, 3, 'in place: no new row');
    state.apply({ sessionUpdate: 'plan_removed', planId: 'plan-mode' });
    assert.deepEqual(chat.patch([]).changed, [{ index: 1, item: { kind: 'plan', planId: 'plan-mode', planType: 'markdown', openable: false, removed: true } }]);
  });

  it('cuts a huge markdown plan for the card at a line break, saying how much it shows', () => {
    const state = newState();
    const huge = '# Huge plan\n' + 'A step of the plan, one line.\n'.repeat(200_000);
    state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'big', content: huge } });
    const [item] = view(state).all();
    assert.ok(item?.kind === 'plan' && item.text !== undefined && item.cut);
    assert.ok(item.text.length <= MAX_CARD_CHARS && item.text.endsWith('line.'), 'cut at a line break');
    assert.deepEqual(item.cut, { shown: item.text.length, total: huge.length });
    assert.ok(changeBytes({ index: 0, item }) < MAX_CARD_CHARS + 1000, 'the message stays small');
  });

  it('file and items plans: the file relative to the workspace, Open only for a file on disk', () => {
    const state = newState();
    state.apply({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'f', uri: 'file:///p/docs/plan.md' } });
    state.apply({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'w', uri: 'https://example.com/plan' } });
    state.apply({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'i', entries: [{ content: 'Step', status: 'in_progress', priority: 'high' }] } });
    assert.deepEqual(view(state).all(), [
      { kind: 'plan', planId: 'f', planType: 'file', file: 'docs/plan.md', openable: true },
      { kind: 'plan', planId: 'w', planType: 'file', file: 'https://example.com/plan', openable: false },
      { kind: 'plan', planId: 'i', planType: 'items', entries: [{ content: 'Step', status: 'in_progress' }], openable: false },
    ]);
  });

  it('a compaction divider: in progress, then done with its summary (the duplicate sends nothing), or unfinished', () => {
    const state = newState();
    state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' });
    const chat = view(state);
    assert.deepEqual(chat.all(), [{ kind: 'compaction', compactionId: 'c1', status: 'in_progress' }]);
    state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [text('The summary.')] });
    assert.deepEqual(chat.patch([]).changed, [{ index: 0, item: { kind: 'compaction', compactionId: 'c1', status: 'completed', summary: 'The summary.' } }]);
    state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' });
    assert.deepEqual(chat.patch([]).changed, [], 'the status-only repeat changes nothing');
    state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c2', status: 'in_progress' });
    state.endTurn();
    const last = chat.patch([]).changed.at(-1);
    assert.deepEqual(last, { index: 1, item: { kind: 'compaction', compactionId: 'c2', status: 'in_progress', unfinished: true } });
  });

  it('the stand-in tool call as a divider with the tokens before and after', () => {
    const state = newState();
    const meta = { claudeCode: { toolName: 'compact' } };
    state.apply({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Compact conversation', kind: 'think', status: 'completed', rawOutput: { trigger: 'manual', preTokens: 180_000, postTokens: 40_500 }, _meta: meta });
    assert.deepEqual(view(state).all(), [{ kind: 'compaction', compactionId: 'x', status: 'completed', tokens: '180k → 40.5k tokens' }]);
    assert.equal(tokensLabel(undefined, undefined), undefined);
    assert.equal(tokensLabel(1_200_000, undefined), '1.2M tokens before');
  });

  it('notices as items: severity, title, description, and how often in a row', () => {
    const state = newState();
    state.apply({ sessionUpdate: 'notice', severity: 'error', title: 'Rate limited' });
    const chat = view(state);
    assert.deepEqual(chat.all(), [{ kind: 'notice', severity: 'error', title: 'Rate limited', description: null }]);
    state.apply({ sessionUpdate: 'notice', severity: 'error', title: 'Rate limited' });
    assert.deepEqual(chat.patch([]).changed, [{ index: 0, item: { kind: 'notice', severity: 'error', title: 'Rate limited', description: null, count: 2 } }]);
  });

  it('the webview takes the new items and refuses malformed ones', () => {
    const items: ChatItem[] = [
      { kind: 'plan', planId: 'p', planType: 'markdown', text: 'x', openable: true },
      { kind: 'compaction', compactionId: 'c', status: 'completed' },
      { kind: 'notice', severity: 'info', title: 't', description: null },
    ];
    const v = CHAT_PROTOCOL_VERSION;
    assert.ok(parseHostMessage({ v, type: 'patch', length: 3, changed: [{ index: 0, items }] }).ok);
    assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 0, items: [{ kind: 'plan', planId: 3 }] }] }).ok, false);
    assert.equal(parseHostMessage({ v, type: 'patch', length: 1, changed: [{ index: 0, items: [{ kind: 'notice', severity: 'info' }] }] }).ok, false);
  });
});
