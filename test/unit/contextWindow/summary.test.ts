import * as assert from 'node:assert/strict';
import { SessionState } from '../../../src/extension/session/model/sessionState';
import { answerAfter, carriedSummary } from '../../../src/extension/contextWindow/model/summary';

const text = (t: string) => ({ type: 'text' as const, text: t });

describe('carrying a conversation into a new session', () => {
  it("reads the agent's answer to the summary request: its messages after the prompt, not before", () => {
    const state = new SessionState({ sessionId: 's', cwd: '/p', schedule: () => undefined });
    state.recordPrompt([text('fix the parser')]);
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Fixed.') });
    const index = state.transcript.length;
    state.recordPrompt([text('summarize')]);
    state.apply({ sessionUpdate: 'agent_thought_chunk', content: text('hmm') });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Goal: a parser.') });
    state.apply({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read' });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: text(' Left: tests. ') });
    assert.equal(answerAfter(state.transcript, index), 'Goal: a parser.\n\nLeft: tests.');
    assert.equal(answerAfter(state.transcript, state.transcript.length), '');
  });

  it('carries the summary as it is, introduced', () => {
    assert.equal(carriedSummary('  We fixed it.\n'), '\nThis session continues an earlier conversation with you. Its summary:\n\nWe fixed it.\n');
  });
});
