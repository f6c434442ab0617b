import * as assert from 'node:assert/strict';
import { branchNotes, contextPrompt, forkPointOf, forkSupportOf, historySteps, resendRoute, userMessageIndex } from '../../../src/extension/session/model/resend';
import type { ToolCallState } from '../../../src/extension/session/model/toolCalls';
import { Transcript } from '../../../src/extension/session/model/transcript';
import { SessionState } from '../../../src/extension/session/model/sessionState';

function call(fields: Partial<ToolCallState> & { id: string }): ToolCallState {
  return { title: '', name: undefined, kind: undefined, status: 'completed', content: [], locations: [], terminalId: undefined, order: 0, revision: 0, contentRevision: 0, ...fields };
}

const text = (t: string) => ({ type: 'text' as const, text: t });

/** Two turns answered, a third asked: user 0, agent (m1), tool call, agent (m2), user 1, agent (m3), user 2. */
function conversation(): { transcript: Transcript; calls: ToolCallState[] } {
  const transcript = new Transcript();
  transcript.startMessage('user', [text('Fix the greeting')]);
  transcript.appendChunk('thought', text('scratch'), 't1');
  transcript.appendChunk('agent', text('Looking.'), 'm1');
  transcript.addToolCall('c1');
  transcript.appendChunk('agent', text('Fixed it.'), 'm2');
  transcript.startMessage('user', [text('Now the farewell'), { type: 'resource_link', name: 'bye.ts', uri: 'file:///p/bye.ts' }]);
  transcript.appendChunk('agent', text('Done too.'), 'm3');
  transcript.startMessage('user', [text('And tests')]);
  const calls = [call({ id: 'c1', title: 'Edit\n greet.ts', status: 'completed', kind: 'edit', content: [{ type: 'diff', path: '/p/greet.ts', oldText: 'a', newText: 'b' }, { type: 'terminal', terminalId: 'term-1' }] })];
  return { transcript, calls };
}

describe('edit and resend', () => {
  it('reads the fork capability: none, whole sessions, or at a message (the draft RFD)', () => {
    assert.equal(forkSupportOf(undefined), 'none');
    assert.equal(forkSupportOf({ list: {} }), 'none');
    assert.equal(forkSupportOf({ fork: null }), 'none');
    assert.equal(forkSupportOf({ fork: {} }), 'whole');
    assert.equal(forkSupportOf({ fork: { atMessageId: 'yes' } }), 'whole');
    assert.equal(forkSupportOf({ fork: { atMessageId: true } }), 'atMessage');
  });

  it('forks at the agent message before the edited one, and nowhere a cut would drop a call', () => {
    const { transcript } = conversation();
    const entries = transcript.entries;
    assert.equal(userMessageIndex(entries, 0), 0);
    assert.equal(userMessageIndex(entries, 1), 5);
    assert.equal(userMessageIndex(entries, 3), -1);
    assert.equal(forkPointOf(entries, 1), 'm2');
    assert.equal(forkPointOf(entries, 2), 'm3');
    assert.equal(forkPointOf(entries, 0), undefined, 'nothing before the first message');

    const afterCall = new Transcript();
    afterCall.startMessage('user', [text('go')]);
    afterCall.appendChunk('agent', text('ok'), 'm1');
    afterCall.addToolCall('c9');
    afterCall.startMessage('user', [text('again')]);
    assert.equal(forkPointOf(afterCall.entries, 1), undefined, 'a turn that ended with a tool call has no clean cut');

    const noIds = new Transcript();
    noIds.startMessage('user', [text('go')]);
    noIds.appendChunk('agent', text('ok'));
    noIds.startMessage('user', [text('again')]);
    assert.equal(forkPointOf(noIds.entries, 1), undefined);
  });

  it('picks the route: fork only at a message, else a new session with the context, and says why', () => {
    assert.deepEqual(resendRoute({ turn: 2, fork: 'atMessage', forkPoint: 'm3', agentName: 'Claude' }), { kind: 'fork', messageId: 'm3' });
    assert.deepEqual(resendRoute({ turn: 0, fork: 'atMessage', forkPoint: undefined, agentName: 'Claude' }), { kind: 'fresh' });
    assert.deepEqual(resendRoute({ turn: 1, fork: 'atMessage', forkPoint: undefined, agentName: 'Claude' }), { kind: 'context', reason: 'Claude named no message to fork at before prompt 2' });
    assert.deepEqual(resendRoute({ turn: 1, fork: 'whole', forkPoint: 'm2', agentName: 'Claude' }), { kind: 'context', reason: 'Claude forks whole sessions only, not at a message' });
    assert.deepEqual(resendRoute({ turn: 1, fork: 'none', forkPoint: 'm2', agentName: 'Bundled' }), { kind: 'context', reason: 'Bundled does not fork sessions' });
  });

  it('builds the context prompt from the conversation before the edited message, then the edited text', () => {
    const { transcript, calls } = conversation();
    const prompt = contextPrompt({ entries: transcript.entries, turn: 1, text: 'Now the farewell, in French', toolCall: (id) => calls.find((c) => c.id === id) });
    const body = prompt.slice(prompt.indexOf('<earlier-conversation>'));
    assert.equal(
      body,
      [
        '<earlier-conversation>',
        'User: Fix the greeting',
        '',
        'Agent: Looking.',
        '',
        '[Tool call: Edit greet.ts (completed)]',
        '',
        'Agent: Fixed it.',
        '</earlier-conversation>',
        '',
        'My message now:',
        '',
        'Now the farewell, in French',
      ].join('\n'),
    );
    assert.doesNotMatch(prompt, /scratch|Done too|Now the farewell\n/, 'no thoughts, nothing from the edited message on');
    const later = contextPrompt({ entries: transcript.entries, turn: 2, text: 'x', toolCall: () => undefined });
    assert.match(later, /User: Now the farewell\n\[attached: file:\/\/\/p\/bye\.ts\]\n\nAgent: Done too\./);
  });

  it('keeps the newest part of a long conversation and says how much it left out', () => {
    const transcript = new Transcript();
    for (let i = 0; i < 50; i++) {
      transcript.startMessage('user', [text(`question ${i} ${'x'.repeat(80)}`)]);
      transcript.appendChunk('agent', text(`answer ${i} ${'y'.repeat(80)}`));
    }
    transcript.startMessage('user', [text('last')]);
    const prompt = contextPrompt({ entries: transcript.entries, turn: 50, text: 'edited', toolCall: () => undefined, maxChars: 2000 });
    assert.match(prompt, /\(\d+ earlier parts of the conversation left out\)/);
    assert.match(prompt, /answer 49 y+\n<\/earlier-conversation>/);
    assert.doesNotMatch(prompt, /question 0 /);
    const body = prompt.slice(prompt.indexOf('<earlier-conversation>'), prompt.indexOf('</earlier-conversation>'));
    assert.ok(body.length < 2100, `bounded: ${body.length}`);
  });

  it('rebuilds the conversation before the edited message in another session, without terminals or foreign message ids', () => {
    const { transcript, calls } = conversation();
    const steps = historySteps({ entries: transcript.entries, turn: 1, toolCall: (id) => calls.find((c) => c.id === id), keepMessageIds: false });
    const state = new SessionState({ sessionId: 'new', cwd: '/p', schedule: () => undefined });
    for (const step of steps) {
      if (step.kind === 'prompt') state.recordPrompt(step.blocks);
      else state.apply(step.update);
    }
    const shown = state.transcript.map((e) => (e.type === 'message' ? `${e.role}:${e.text}:${e.messageId ?? '-'}` : e.type === 'toolCall' ? `call:${e.id}` : e.type));
    assert.deepEqual(shown, ['user:Fix the greeting:-', 'thought:scratch:-', 'agent:Looking.:-', 'call:c1', 'agent:Fixed it.:-']);
    assert.equal(state.turn, 0, 'the next prompt is the branch’s turn 1');
    const copied = state.toolCall('c1');
    assert.equal(copied?.status, 'completed');
    assert.deepEqual(copied?.content.map((c) => c.type), ['diff']);

    const forked = historySteps({ entries: transcript.entries, turn: 2, toolCall: (id) => calls.find((c) => c.id === id), keepMessageIds: true });
    const ids = forked.flatMap((s) => (s.kind === 'update' && 'messageId' in s.update ? [s.update.messageId] : []));
    assert.deepEqual(ids, ['t1', 'm1', 'm2', 'm3']);
  });

  it('names the two branches for Session History', () => {
    assert.deepEqual(branchNotes(1), { before: '(before edit)', after: '(edit of prompt 2)' });
  });
});
