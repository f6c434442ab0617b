import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { SessionState } from '../../../src/extension/session/model/sessionState';
import { activityLabel, MAX_SUBAGENT_MESSAGE_CHARS, type SubagentApplied } from '../../../src/extension/session/model/subagents';
import { subagentItem, subagentRevision, MAX_SUBAGENT_ROWS, type SubagentLookup } from '../../../src/extension/chat/model/chatSubagents';
import { checkSessionNotification } from '../../../src/extension/wire/updateShape';

/** A subagent operation as it arrives (its kinds are `/unstable` in SDK 2.4). */
const op = (update: Record<string, unknown>) => update as unknown as SessionUpdate;
const text = (t: string) => ({ type: 'text' as const, text: t });

function family() {
  const announced: SubagentApplied[] = [];
  const children = new Map<string, SessionState>();
  const parent = new SessionState({
    sessionId: 'p',
    cwd: '/w',
    schedule: () => undefined,
    onSubagent: (applied) => {
      announced.push(applied);
      if (applied.created) children.set(applied.record.childId, new SessionState({ sessionId: applied.record.childId, cwd: '/w', schedule: () => undefined }));
    },
  });
  const lookup: SubagentLookup = {
    child: (_parent, childId) => {
      const state = children.get(childId);
      return state ? { sessionId: childId, state } : undefined;
    },
    callTitle: (call) => call.title,
  };
  return { parent, children, announced, lookup };
}

/** Claude's Agent tool, as its adapter 0.101 sends it to a client with `subagents`. */
function claudeSpawn(parent: SessionState, childId = 'a1b2c3d4e5f6g7h8i') {
  parent.apply(op({ sessionUpdate: 'subagent_update', sessionId: childId, title: 'Read hello', description: 'general-purpose', capabilities: { cancel: {} }, state: { state: 'running' } }));
  parent.apply(op({ sessionUpdate: 'session_message', messageId: 'toolu_1', recipientSessionId: childId, recipientMessageId: 'toolu_1', content: [text('Read hello.txt and report')] }));
}

describe('subagents of a session (subagent_update, session_message)', () => {
  it('announces a child once, in the parent conversation where it came, with its prompt and spawning call', () => {
    const { parent, announced } = family();
    claudeSpawn(parent);
    assert.equal(announced.length, 1);
    assert.equal(announced[0]?.created, true);
    const [record] = parent.subagents;
    assert.equal(record?.title, 'Read hello');
    assert.equal(record?.cancellable, true);
    assert.equal(record?.prompt, 'Read hello.txt and report');
    assert.equal(record?.parentToolCallId, 'toolu_1');
    assert.deepEqual(parent.transcript.map((e) => e.type), ['subagent']);
  });

  it('patches: omitted keeps, null clears, a state replaces the whole state', () => {
    const { parent } = family();
    claudeSpawn(parent, 'c');
    parent.apply(op({ sessionUpdate: 'subagent_update', sessionId: 'c', state: { state: 'requires_action' } }));
    assert.equal(activityLabel(parent.subagent('c')!), 'needs you');
    assert.equal(parent.subagent('c')?.title, 'Read hello');
    parent.apply(op({ sessionUpdate: 'subagent_update', sessionId: 'c', title: null, capabilities: null, state: { state: 'idle', stopReason: 'end_turn' } }));
    const record = parent.subagent('c')!;
    assert.equal(record.title, undefined);
    assert.equal(record.cancellable, false);
    assert.equal(activityLabel(record), 'idle (end_turn)');
    parent.apply(op({ sessionUpdate: 'subagent_update', sessionId: 'c', state: { state: 'paused_by_newer_acp' } }));
    assert.equal(parent.subagent('c')?.activity, 'unknown');
    assert.equal(parent.transcript.length, 1, 'the same child is one block');
  });

  it('takes the report from the :reply message, without the tools-used line', () => {
    const { parent } = family();
    claudeSpawn(parent, 'c');
    parent.apply(op({ sessionUpdate: 'subagent_update', sessionId: 'c', state: { state: 'idle', stopReason: 'end_turn' } }));
    parent.apply(op({ sessionUpdate: 'session_message', messageId: 'toolu_1:reply', senderSessionId: 'c', recipientSessionId: 'p', content: [text('<tools-used-before-summary>Edit, Read</tools-used-before-summary>\n'), text('hello.txt says hello')] }));
    const record = parent.subagent('c')!;
    assert.equal(record.report, 'hello.txt says hello');
    assert.equal(record.toolsUsed, 'Edit, Read');
    assert.equal(record.prompt, 'Read hello.txt and report', 'the reply does not overwrite the prompt');
  });

  it('a child still at work when the parent turn ends goes on in the background (and Claude’s async launch says so too)', () => {
    const { parent } = family();
    claudeSpawn(parent, 'bg');
    parent.apply(op({ sessionUpdate: 'session_message', messageId: 'toolu_1:reply', senderSessionId: 'bg', content: [text('Async agent launched successfully. agentId: bg')] }));
    assert.equal(parent.subagent('bg')?.background, true);
    assert.equal(parent.subagent('bg')?.report, undefined, 'launch metadata is not the report');
    claudeSpawn(parent, 'late');
    parent.endTurn();
    assert.equal(activityLabel(parent.subagent('late')!), 'running in the background');
  });

  it('stops the children still at work when the agent exits, and leaves the finished ones as they were', () => {
    const { parent } = family();
    claudeSpawn(parent, 'working');
    claudeSpawn(parent, 'done');
    parent.apply(op({ sessionUpdate: 'subagent_update', sessionId: 'done', state: { state: 'idle', stopReason: 'end_turn' } }));
    assert.deepEqual(parent.subagentsStopped(), ['working']);
    assert.equal(activityLabel(parent.subagent('working')!), 'idle (agent exited)');
    assert.equal(activityLabel(parent.subagent('done')!), 'idle (end_turn)');
    assert.deepEqual(parent.subagentsStopped(), [], 'a second exit stops nothing more');
  });

  it('bounds a huge prompt', () => {
    const { parent } = family();
    parent.apply(op({ sessionUpdate: 'subagent_update', sessionId: 'c' }));
    parent.apply(op({ sessionUpdate: 'session_message', messageId: 'm', recipientSessionId: 'c', content: [text('x'.repeat(MAX_SUBAGENT_MESSAGE_CHARS * 3))] }));
    assert.ok((parent.subagent('c')?.prompt?.length ?? 0) <= MAX_SUBAGENT_MESSAGE_CHARS + 1);
  });

  it('the child learns its spawning call from its own traffic (Claude’s parentToolUseId) and keeps its copy of the prompt', () => {
    const child = new SessionState({ sessionId: 'c', cwd: '/w', schedule: () => undefined });
    child.apply(op({ sessionUpdate: 'session_message', messageId: 'toolu_1', senderMessageId: 'toolu_1', content: [text('Read it')] }));
    child.apply({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read hello.txt', kind: 'read', status: 'completed', _meta: { claudeCode: { parentToolUseId: 'toolu_1' } } });
    assert.equal(child.spawnedBy, 'toolu_1');
    assert.equal(child.receivedMessage, 'Read it');
  });
});

describe('a subagent block in the parent’s chat', () => {
  it('shows the prompt, the child’s text, its rows, its report, and Stop while it runs', () => {
    const { parent, children, lookup } = family();
    claudeSpawn(parent, 'c');
    const child = children.get('c')!;
    child.apply({ sessionUpdate: 'agent_message_chunk', content: text('Reading the file.') });
    child.apply({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read hello.txt', kind: 'read', status: 'completed' });
    const running = subagentItem(parent, parent.subagent('c')!, lookup);
    assert.equal(running.canStop, true);
    assert.equal(running.state, 'running');
    assert.equal(running.text, 'Reading the file.');
    assert.deepEqual(running.tools.map((t) => `${t.title}: ${t.status}`), ['Read hello.txt: completed']);
    const before = subagentRevision(parent, parent.subagent('c')!, lookup);
    parent.apply(op({ sessionUpdate: 'subagent_update', sessionId: 'c', state: { state: 'idle', stopReason: 'end_turn' } }));
    parent.apply(op({ sessionUpdate: 'session_message', messageId: 'toolu_1:reply', senderSessionId: 'c', content: [text('Done: hello')] }));
    assert.notEqual(subagentRevision(parent, parent.subagent('c')!, lookup), before);
    const done = subagentItem(parent, parent.subagent('c')!, lookup);
    assert.equal(done.canStop, undefined, 'an idle child has nothing to stop');
    assert.equal(done.report, 'Done: hello');
    assert.equal(done.prompt, 'Read hello.txt and report');
  });

  it('moves when the child changes, keeps a bounded list of rows, and nests a child of a child', () => {
    const { parent, children, lookup } = family();
    claudeSpawn(parent, 'c');
    const child = children.get('c')!;
    const before = subagentRevision(parent, parent.subagent('c')!, lookup);
    for (let i = 0; i < 500; i++) child.apply({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `Call ${i}`, status: 'completed' });
    assert.ok(subagentRevision(parent, parent.subagent('c')!, lookup) > before);
    const grandchild = new SessionState({ sessionId: 'g', cwd: '/w', schedule: () => undefined });
    children.set('g', grandchild);
    child.apply(op({ sessionUpdate: 'subagent_update', sessionId: 'g', title: 'Nested', state: { state: 'running' } }));
    const item = subagentItem(parent, parent.subagent('c')!, lookup);
    assert.equal(item.tools.length, MAX_SUBAGENT_ROWS);
    assert.equal(item.moreTools, 500 - MAX_SUBAGENT_ROWS);
    assert.equal(item.tools.at(-1)?.title, 'Call 499');
    assert.deepEqual(item.children?.map((c) => c.title), ['Nested']);
  });
});

describe('the update check of subagent operations', () => {
  it('accepts Claude’s shapes and refuses a subagent_update without a child id', () => {
    const ok = (update: unknown) => checkSessionNotification({ sessionId: 'p', update }).ok;
    assert.equal(ok({ sessionUpdate: 'subagent_update', sessionId: 'c', title: 'x', capabilities: { cancel: {} }, state: { state: 'idle', stopReason: 'end_turn' } }), true);
    assert.equal(ok({ sessionUpdate: 'session_message', messageId: 'm', recipientSessionId: 'c', content: [text('hi')] }), true);
    assert.equal(ok({ sessionUpdate: 'session_message_chunk', messageId: 'm', content: text('hi') }), true);
    assert.equal(ok({ sessionUpdate: 'subagent_update', title: 'no id' }), false);
    assert.equal(ok({ sessionUpdate: 'subagent_update', sessionId: 'c', state: 'running' }), false);
  });
});
