/** Rebuilding a model conversation from the session log. */
import * as assert from 'node:assert/strict';
import { historyMessages } from '../../../src/agent/brains/llm/history';
import { readReply } from '../../../src/agent/brains/llm/stream';
import type { SessionEvent } from '../../../src/agent/sessionEvents';

describe('LLM history and streaming', () => {
  it('pairs tool calls with their results and leaves thoughts out', () => {
    const events: SessionEvent[] = [
      { type: 'session', version: 1, sessionId: 's', cwd: '/p', createdAt: '' },
      { type: 'user_message', content: [{ type: 'text', text: 'hi' }] },
      { type: 'agent_thought', text: 'hmm' },
      { type: 'agent_message', text: 'Reading.' },
      { type: 'tool_call', toolCallId: 'a', tool: 'read', args: { path: '/p/x' } },
      { type: 'tool_result', toolCallId: 'a', isError: false, text: '1\tx' },
      { type: 'tool_call', toolCallId: 'b', tool: 'bash', args: { command: 'false' } },
      { type: 'tool_result', toolCallId: 'b', isError: true, text: '[exit code 1]' },
      { type: 'agent_message', text: 'Done.' },
    ];
    assert.deepEqual(historyMessages(events), [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'a', type: 'function', function: { name: 'read', arguments: '{"path":"/p/x"}' } }] },
      { role: 'tool', tool_call_id: 'a', content: '1\tx' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'b', type: 'function', function: { name: 'bash', arguments: '{"command":"false"}' } }] },
      { role: 'tool', tool_call_id: 'b', content: 'Error: [exit code 1]' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('answers a call that never got a result, since the API rejects unanswered calls', () => {
    const messages = historyMessages([
      { type: 'user_message', content: [{ type: 'text', text: 'go' }] },
      { type: 'tool_call', toolCallId: 'x', tool: 'bash', args: { command: 'sleep 9' } },
      { type: 'user_message', content: [{ type: 'text', text: 'again' }] },
    ]);
    assert.deepEqual(messages.map((m) => m.role), ['user', 'assistant', 'tool', 'user']);
  });

  it('assembles streamed tool calls from fragments and passes text and reasoning on', async () => {
    const chunk = (delta: object, finish: string | null = null) => ({ id: '', object: 'chat.completion.chunk' as const, created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
    async function* stream() {
      yield chunk({ reasoning_content: 'think ' });
      yield chunk({ reasoning: 'more' });
      yield chunk({ content: 'Hel' });
      yield chunk({ content: 'lo' });
      yield chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'read', arguments: '{"pa' } }] });
      yield chunk({ tool_calls: [{ index: 0, function: { arguments: 'th":"x"}' } }] });
      yield chunk({}, 'tool_calls');
    }
    const seen: string[] = [];
    const reply = await readReply(stream() as never, { text: (t) => seen.push(`t:${t}`), reasoning: (t) => seen.push(`r:${t}`) });
    assert.deepEqual(seen, ['r:think ', 'r:more', 't:Hel', 't:lo']);
    assert.deepEqual(reply, { text: 'Hello', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"path":"x"}' }], finishReason: 'tool_calls' });
  });
});
