import * as assert from 'node:assert/strict';
import { SessionState } from '../../../src/extension/session/model/sessionState';
import { ChatTranscript, blockLabel } from '../../../src/extension/chat/model/chatViewModel';
import { activityOf, chatStatus } from '../../../src/extension/chat/model/chatStatus';
import type { PermissionQuestion } from '../../../src/extension/permissions/model/permissionRequests';
import type { ChatPatch } from '../../../src/extension/chat/model/chatViewModel';
import { applyChatPatch, packItem, type ChatItem } from '../../../src/protocol/chat';
import { TURNS_INTERVAL_MS, changeBytes, turnsRefreshWait } from '../../../src/extension/chat/model/chatViewModel';

const text = (t: string) => ({ type: 'text' as const, text: t });
const newState = () => new SessionState({ sessionId: 's1', cwd: '/p', schedule: () => undefined });
const view = (state: SessionState) => new ChatTranscript(state, { callTitle: (call) => `T:${call.title}` });

describe('chat view model', () => {
  it('turns the transcript into message and tool rows, in order, with relative titles and targets', () => {
    const state = newState();
    state.recordPrompt([text('fix it'), { type: 'resource_link', uri: 'file:///p/src/a.ts', name: 'src/a.ts' }]);
    state.apply({ sessionUpdate: 'agent_thought_chunk', content: text('hmm') });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('**On it**') });
    state.apply({ sessionUpdate: 'tool_call', toolCallId: 'e', title: 'Edit', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: '/p/a.ts', oldText: 'a', newText: 'b' }] });
    state.apply({ sessionUpdate: 'tool_call', toolCallId: 'r', title: 'Read', kind: 'read', status: 'completed' });
    const items = view(state).all();
    assert.deepEqual(items[0], { kind: 'message', role: 'user', text: 'fix it', attachments: ['src/a.ts'], turn: 0 });
    assert.deepEqual(items.slice(1, 3).map((i) => (i.kind === 'message' ? [i.role, i.text] : [])), [['thought', 'hmm'], ['agent', '**On it**']]);
    assert.deepEqual(items[3], { kind: 'toolCall', toolCallId: 'e', title: 'T:Edit', icon: 'edit', status: 'in_progress', opens: 'diff' });
    assert.deepEqual(items[4], { kind: 'toolCall', toolCallId: 'r', title: 'T:Read', icon: 'book', status: 'completed' }, 'what the webview derives (the status label) or defaults (opens the tree) is not sent');
  });

  it('patches only what changed: the streamed tail and the tool calls named', () => {
    const state = newState();
    state.recordPrompt([text('go')]);
    state.apply({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Run', kind: 'execute', status: 'in_progress' });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Run') });
    const chat = view(state);
    chat.all();
    assert.deepEqual(chat.patch([]), { length: 3, changed: [] }, 'nothing changed, nothing sent');
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('ning') });
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' });
    const patch = chat.patch(['c1']);
    assert.equal(patch.length, 3);
    assert.deepEqual(patch.changed.map((c) => c.index), [1, 2]);
    assert.deepEqual(patch.changed[1], { index: 2, append: 'ning' }, 'streamed text travels as what it grew by');
    state.recordPrompt([text('again')]);
    assert.deepEqual(chat.patch([]).changed.map((c) => c.index), [3]);
  });

  it('sends a streamed message as the text it grew by, and the whole item when its shape changes', () => {
    const state = newState();
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('# Title\n\n') });
    const chat = view(state);
    assert.deepEqual(chat.all(), [{ kind: 'message', role: 'agent', text: '# Title\n\n', attachments: [] }]);
    let received = '# Title\n\n';
    for (let i = 0; i < 50; i++) {
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text(`word ${i} `) });
      if (i % 7 !== 0) continue;
      const [change, ...rest] = chat.patch([]).changed;
      assert.equal(rest.length, 0);
      assert.ok(change && 'append' in change && change.index === 0, JSON.stringify(change));
      received += change.append;
    }
    const last = chat.patch([]).changed[0];
    received += last && 'append' in last ? last.append : '';
    assert.equal(received, state.transcript[0]?.type === 'message' && state.transcript[0].text, 'the deltas add up to the text');
    assert.deepEqual(chat.patch([]).changed, [], 'nothing new, nothing sent');
    // A block (an image, a resource) changes what the message shows besides its text: the whole item.
    state.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: 'file:///p/b.ts', name: 'b.ts' } });
    const whole = chat.patch([]).changed[0];
    assert.ok(whole && 'item' in whole && whole.item.kind === 'message');
    assert.deepEqual(whole.item.attachments, ['b.ts']);
    assert.equal(whole.item.text, received);
    // Text after the block is again a delta.
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('after') });
    assert.deepEqual(chat.patch([]).changed, [{ index: 0, append: 'after' }]);
  });

  it('reads only the new text of a 1 MB answer per patch (no copy of the whole text)', () => {
    const state = newState();
    const chat = view(state);
    chat.all();
    const chunk = 'x'.repeat(99) + '\n';
    let sent = 0;
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) {
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text(chunk) });
      if (i % 10 === 9) {
        for (const change of chat.patch([]).changed) sent += 'append' in change ? change.append.length : change.item.kind === 'message' ? change.item.text.length : 0;
      }
    }
    const ms = performance.now() - started;
    assert.equal(sent, 1_000_000, 'every character sent once');
    // Printed, not asserted: the assertion above (each character sent once) is the design.
    console.log(`      10,000 chunks, 1,000 patches: ${ms.toFixed(1)} ms`);
  });

  it('keeps a patch of a 2,000-message session small and fast', () => {
    const state = newState();
    for (let i = 0; i < 1000; i++) {
      state.recordPrompt([text(`question ${i}`)]);
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text(`answer ${i} `.repeat(20)) });
    }
    const chat = view(state);
    let started = performance.now();
    assert.equal(chat.all().length, 2000);
    const allMs = performance.now() - started;
    started = performance.now();
    for (let i = 0; i < 100; i++) {
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text(' more') });
      const patch = chat.patch([]);
      assert.deepEqual(patch.changed, [{ index: 1999, append: ' more' }]);
    }
    const patchMs = (performance.now() - started) / 100;
    assert.ok(patchMs < 2, `a patch took ${patchMs.toFixed(3)} ms`);
    assert.ok(allMs < 500, `the whole list took ${allMs.toFixed(1)} ms`);
  });

  it('cuts a patch when asked and sends the rest with the next ones: the list never has a gap and no change is lost', () => {
    const state = newState();
    state.recordPrompt([text('storm')]);
    for (let i = 0; i < 10; i++) state.apply({ sessionUpdate: 'tool_call', toolCallId: `old${i}`, title: `Old ${i}`, kind: 'read', status: 'in_progress' });
    const chat = view(state);
    // What the webview holds, applied as list.ts does: a change past the length is refused.
    const list: ChatItem[] = chat.all();
    const apply = (patch: ChatPatch) => {
      assert.ok(patch.length >= list.length, 'the list never shrinks here');
      for (const change of patch.changed) {
        assert.ok(change.index < patch.length, `change ${change.index} past the length ${patch.length}`);
        assert.ok(change.index <= list.length, `change ${change.index} leaves a gap after ${list.length} items`);
        list[change.index] = 'item' in change ? change.item : list[change.index]!;
      }
      assert.equal(list.length, patch.length, 'every item up to the length is there');
    };
    for (let i = 0; i < 300; i++) state.apply({ sessionUpdate: 'tool_call', toolCallId: `new${i}`, title: `New ${i}`, kind: 'edit', status: 'pending' });
    // Older rows change too: the one the patch is cut before must not be lost.
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'old3', status: 'completed' });
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'old7', status: 'failed' });
    const first = chat.patch(['old3', 'old7', ...Array.from({ length: 300 }, (_, i) => `new${i}`)], { stop: () => true });
    assert.equal(first.more, true, 'cut');
    assert.deepEqual(first.changed.map((c) => c.index), [4], 'cut after the first row');
    assert.equal(first.length, 11, 'no new row sent yet');
    apply(first);
    let built = 0;
    const second = chat.patch([], { stop: () => ++built % 40 === 0 });
    assert.equal(second.changed[0]?.index, 8, 'the row left over comes first');
    apply(second);
    // Meanwhile a row sent in the first part changes, and one not sent yet.
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'new5', status: 'failed' });
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'new200', status: 'completed' });
    let patches = 2;
    for (let patch = chat.patch(['new5', 'new200'], { stop: () => ++built % 40 === 0 }); ; patch = chat.patch([], { stop: () => ++built % 40 === 0 })) {
      apply(patch);
      patches++;
      if (!patch.more) break;
      assert.ok(patches < 20, 'the patches end');
    }
    assert.ok(patches >= 8, `sent over several patches (${patches})`);
    assert.deepEqual(list, view(state).all(), 'the webview ends with every item as it is');
    assert.deepEqual(chat.patch([]), { length: 311, changed: [] }, 'nothing left over');
  });

  it('sends a long session in parts (a reset, then patches): the webview ends with every item, in order, and no change is lost', () => {
    const state = newState();
    for (let i = 0; i < 500; i++) {
      state.recordPrompt([text(`question ${i}`)]);
      state.apply({ sessionUpdate: 'tool_call', toolCallId: `c${i}`, title: `Read ${i}`, kind: 'read', status: 'in_progress' });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text(`answer ${i}`) });
    }
    const chat = view(state);
    let built = 0;
    const stop = () => ++built % 100 === 0;
    const reset = chat.reset({ stop });
    assert.equal(reset.more, true, 'cut');
    assert.equal(reset.items.length, 100, 'the oldest items first');
    // What the webview holds while the rest comes (main.ts: the pending reset), patched as it arrives.
    const items: ChatItem[] = [...reset.items];
    // Meanwhile a call already sent changes, one not sent yet changes, and the last answer grows.
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'c10', status: 'failed' });
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'c300', status: 'completed' });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text(' and more') });
    let parts = 1;
    for (let patch = chat.patch(['c10', 'c300'], { stop }); ; patch = chat.patch([], { stop })) {
      for (const change of patch.changed) {
        assert.ok(change.index <= items.length, `change ${change.index} leaves a gap after ${items.length} items`);
        applyChatPatch(items, patch.length, [change]);
      }
      applyChatPatch(items, patch.length, []);
      assert.equal(items.length, patch.length);
      assert.ok(items.every((item) => item !== undefined), 'no hole');
      parts++;
      if (!patch.more) break;
      assert.ok(parts < 100, 'the parts end');
    }
    assert.ok(parts >= 15, `sent in ${parts} parts`);
    assert.deepEqual(items, view(state).all(), 'every item as it is, in order');
    assert.deepEqual(chat.patch([]), { length: 1500, changed: [] }, 'nothing left over');
    assert.equal(chat.reset().more, undefined, 'without a stop, the whole list at once');
  });

  it('refreshes the turn summaries a few times a second while a turn runs, and at once when it ended', () => {
    assert.equal(turnsRefreshWait({ now: 1000, last: -Infinity, busy: true }), 0, 'the first refresh of a turn is not delayed');
    assert.equal(turnsRefreshWait({ now: 1100, last: 1000, busy: true }), TURNS_INTERVAL_MS - 100, 'the next waits for its interval');
    assert.equal(turnsRefreshWait({ now: 1000 + TURNS_INTERVAL_MS, last: 1000, busy: true }), 0);
    assert.equal(turnsRefreshWait({ now: 1001, last: 1000, busy: false }), 0, 'the turn ended: exact at once');
  });

  it('caps a posted message by its estimated bytes as well as by build time', () => {
    const state = newState();
    for (let i = 0; i < 2000; i++) state.apply({ sessionUpdate: 'tool_call', toolCallId: `call-${i}`, title: `Read src/some/folder/file${i}.ts`, kind: 'read', status: 'completed' });
    const chat = view(state);
    let bytes = 0;
    const reset = chat.reset({ stop: (built) => (bytes += changeBytes(built)) >= 24 * 1024 });
    assert.equal(reset.more, true);
    // What travels: the items packed.
    const json = JSON.stringify(reset.items.map(packItem)).length;
    assert.ok(json < 32 * 1024 && json > 12 * 1024, `the first part is about 24 KB of JSON (${json})`);
    assert.ok(reset.items.length < 2000);
  });

  it('looks at a tool call again only when its revision moved, and names its files again only when its title or paths changed', () => {
    const state = newState();
    let titles = 0;
    const chat = new ChatTranscript(state, { callTitle: (call) => (titles++, `T:${call.title}`) });
    state.apply({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Read a', kind: 'read', status: 'pending', locations: [{ path: '/p/a.ts' }] });
    chat.all();
    assert.equal(titles, 1);
    assert.deepEqual(chat.patch(['c']).changed, [], 'named but unchanged: nothing sent');
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'completed', rawOutput: { lines: 3 } });
    const done = chat.patch(['c']).changed;
    assert.deepEqual(done.map((c) => 'item' in c && c.item.kind === 'toolCall' && [c.item.status, c.item.title]), [['completed', 'T:Read a']]);
    assert.equal(titles, 1, 'a status change keeps the title computed');
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'c', rawOutput: { lines: 4 } });
    assert.deepEqual(chat.patch(['c']).changed, [], 'what the row does not show changed: nothing sent');
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'c', locations: [{ path: '/p/b.ts' }] });
    chat.patch(['c']);
    state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'c', title: 'Read b' });
    const renamed = chat.patch(['c']).changed;
    assert.equal(titles, 3, 'new paths, then a new title: named again each time');
    assert.deepEqual(renamed.map((c) => 'item' in c && c.item.kind === 'toolCall' && c.item.title), ['T:Read b']);
  });

  it('builds the status: modes, select and boolean options, commands, plan, questions, the context meter, activity', () => {
    const state = newState();
    state.setModes({ currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'bypass', name: 'Bypass' }] });
    state.setConfigOptions([
      { type: 'select', id: 'model', name: 'Model', currentValue: 'b', options: [{ group: 'g', name: 'G', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B' }] }] },
      { type: 'boolean', id: 'fast', name: 'Fast', currentValue: true },
    ]);
    state.apply({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'read', description: 'Read a file', input: { hint: 'PATH' } }] });
    state.apply({ sessionUpdate: 'plan', entries: [{ content: 'step', status: 'in_progress', priority: 'high' }] });
    state.apply({ sessionUpdate: 'usage_update', used: 12_300, size: 200_000, cost: { amount: 0.0412, currency: 'USD' } });
    const question: PermissionQuestion = {
      id: 7,
      sessionId: 's1',
      toolCall: { toolCallId: 'c', title: 'Run ls' },
      options: [{ optionId: 'y', name: 'Allow', kind: 'allow_once' }, { optionId: 'n', name: 'Reject', kind: 'reject_once' }],
    };
    const status = chatStatus({ state, agentName: 'Bot', busy: true, questions: [question], questionTitle: () => 'Run ls', attachments: [] });
    const editorQuestion = chatStatus({ state, agentName: 'Bot', busy: true, questions: [question], questionTitle: () => 'Overwrite', questionInspect: () => 'Compare', attachments: [] });
    assert.equal(editorQuestion.permissions[0].inspect, 'Compare', "the editor's Compare is offered inline too");
    assert.deepEqual(status.modes, [{ id: 'ask', name: 'Ask' }, { id: 'bypass', name: 'Bypass' }]);
    assert.equal(status.currentModeId, 'ask');
    assert.deepEqual(status.configOptions, [
      { id: 'model', name: 'Model', description: null, category: null, currentValue: 'b', options: [{ id: 'a', name: 'A' }, { id: 'b', name: 'B' }] },
    ]);
    assert.deepEqual(status.commands, [{ name: 'read', description: 'Read a file', hint: 'PATH' }]);
    assert.deepEqual(status.plan, [{ content: 'step', status: 'in_progress' }]);
    assert.deepEqual(status.permissions, [{ questionId: 7, toolCallId: 'c', title: 'Run ls', options: [{ id: 'y', name: 'Allow', kind: 'allow_once' }, { id: 'n', name: 'Reject', kind: 'reject_once' }], inspect: null }]);
    assert.equal(status.activity, 'waiting');
    assert.deepEqual(status.toggles, [{ id: 'fast', name: 'Fast', description: null, value: true }], 'a boolean option is a toggle, not dropped');
    assert.equal(status.context?.label, '12.3k / 200k (6 %)');
    assert.equal(status.context?.detail, 'Context window: 12,300 of 200,000 tokens used (6 %) · cost 0.04 USD');
  });

  it('names activities and blocks plainly', () => {
    assert.equal(activityOf({ hasSession: false, busy: true, waiting: true }), 'none');
    assert.equal(activityOf({ hasSession: true, busy: false, waiting: false }), 'idle');
    assert.equal(activityOf({ hasSession: true, busy: true, waiting: false }), 'working');
    assert.equal(blockLabel({ type: 'resource', resource: { uri: 'file:///p/my%20file.ts#L1-2', text: 'x' } }), 'my file.ts');
  });

  it('drops the legacy mode picker when a config option of category mode supersedes it (the spec: configOptions win)', () => {
    const state = newState();
    const modes = [{ id: 'default', name: 'Always Ask' }, { id: 'plan', name: 'Plan Mode' }];
    state.setModes({ currentModeId: 'default', availableModes: modes });
    state.setConfigOptions([
      { type: 'select', id: 'mode', name: 'Mode', description: 'How it asks', category: 'mode', currentValue: 'default', options: modes.map((m) => ({ value: m.id, name: m.name })) },
      { type: 'select', id: 'model', name: 'Model', category: 'model', currentValue: 'x', options: [{ value: 'x', name: 'X' }] },
    ]);
    const status = chatStatus({ state, agentName: 'Claude', busy: false, questions: [], questionTitle: () => '', attachments: [] });
    assert.deepEqual(status.modes, [], 'one mode picker, not two');
    assert.deepEqual(status.configOptions.map((o) => [o.id, o.category, o.description]), [['mode', 'mode', 'How it asks'], ['model', 'model', null]]);
    state.setConfigOptions([{ type: 'select', id: 'model', name: 'Model', category: 'model', currentValue: 'x', options: [{ value: 'x', name: 'X' }] }]);
    const legacy = chatStatus({ state, agentName: 'Claude', busy: false, questions: [], questionTitle: () => '', attachments: [] });
    assert.equal(legacy.modes.length, 2, 'without a mode option the legacy modes show');
  });

  it('shows image blocks of messages and tool results, within the size cap, and waits while a form is open', () => {
    const png = 'iVBORw0KGgo=';
    const state = newState();
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('look') });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/png', data: png } });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/png', data: 'A'.repeat(8 * 1024 * 1024) } });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', mimeType: 'image/svg+xml', data: png } });
    state.apply({ sessionUpdate: 'tool_call', toolCallId: 's', title: 'Screenshot', kind: 'other', status: 'completed', content: [{ type: 'content', content: { type: 'image', mimeType: 'image/jpeg', data: png } }] });
    const [message, tool] = view(state).all();
    assert.deepEqual(message?.kind === 'message' && message.images, [{ mimeType: 'image/png', data: png }]);
    assert.deepEqual(message?.kind === 'message' && message.attachments, ['image', 'image'], 'the oversized and the SVG image keep a label');
    assert.deepEqual(tool?.kind === 'toolCall' && tool.images, [{ mimeType: 'image/jpeg', data: png }]);
    const status = chatStatus({
      state,
      agentName: 'A',
      busy: true,
      questions: [],
      questionTitle: () => '',
      attachments: [],
      elicitations: [{ id: 1, message: 'm', fields: [], errors: {} }],
      acceptsImages: true,
    });
    assert.equal(status.activity, 'waiting');
    assert.equal(status.acceptsImages, true);
  });
});
