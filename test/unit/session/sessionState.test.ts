import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { SessionState, type SessionChanges } from '../../../src/extension/session/model/sessionState';
import type { MessageEntry } from '../../../src/extension/session/model/transcript';

/** A session whose flushes run only when the test says so. */
function manualSession(options: { onWarning?: (m: string) => void } = {}) {
  const flushes: (() => void)[] = [];
  const events: SessionChanges[] = [];
  const state = new SessionState({
    sessionId: 's1',
    cwd: '/p',
    schedule: (flush) => flushes.push(flush),
    ...options,
  });
  state.onDidChange((changes) => events.push(changes));
  const flush = () => {
    for (const f of flushes.splice(0)) f();
  };
  return { state, events, flushes, flush };
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const messages = (state: SessionState) => state.transcript.filter((e): e is MessageEntry => e.type === 'message');

describe('SessionState', () => {
  describe('conversation', () => {
    it('merges consecutive chunks of a role and interleaves tool calls in order', () => {
      const { state } = manualSession();
      state.apply({ sessionUpdate: 'agent_thought_chunk', content: text('Think') });
      state.apply({ sessionUpdate: 'agent_thought_chunk', content: text('ing.') });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Let me ') });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('look.') });
      state.apply({ sessionUpdate: 'tool_call', toolCallId: 'r', title: 'Read a.ts' });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Done.') });
      assert.deepEqual(
        state.transcript.map((e) => (e.type === 'message' ? [e.role, e.text] : e.type === 'toolCall' ? ['toolCall', e.id] : [e.type])),
        [
          ['thought', 'Thinking.'],
          ['agent', 'Let me look.'],
          ['toolCall', 'r'],
          ['agent', 'Done.'],
        ],
      );
    });

    it('starts a new message when the messageId changes', () => {
      const { state } = manualSession();
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('one'), messageId: 'm1' });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text(' more'), messageId: 'm1' });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('two'), messageId: 'm2' });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text(' and on') });
      assert.deepEqual(
        messages(state).map((m) => [m.messageId, m.text]),
        [
          ['m1', 'one more'],
          ['m2', 'two and on'],
        ],
      );
    });

    it('keeps non-text blocks as blocks between the text', () => {
      const { state } = manualSession();
      const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
      state.apply({ sessionUpdate: 'user_message_chunk', content: text('See ') });
      state.apply({ sessionUpdate: 'user_message_chunk', content: image });
      state.apply({ sessionUpdate: 'user_message_chunk', content: text('this') });
      const [message] = messages(state);
      assert.equal(message.role, 'user');
      assert.equal(message.text, 'See this');
      assert.deepEqual(message.parts, [
        { type: 'text', text: 'See ' },
        { type: 'block', block: image },
        { type: 'text', text: 'this' },
      ]);
    });

    it('records a prompt we sent as its own user message', () => {
      const { state } = manualSession();
      state.recordPrompt([text('first')]);
      state.recordPrompt([text('second')]);
      assert.deepEqual(messages(state).map((m) => m.text), ['first', 'second']);
    });

    it('knows its turn by the user message it began with, replayed ones included', () => {
      const { state } = manualSession();
      assert.equal(state.turn, 0, 'before the first prompt');
      // A session/load replays two user messages, the second in two chunks.
      state.apply({ sessionUpdate: 'user_message_chunk', content: text('old one') });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('answer') });
      state.apply({ sessionUpdate: 'user_message_chunk', content: text('old ') });
      state.apply({ sessionUpdate: 'user_message_chunk', content: text('two') });
      assert.equal(state.turn, 1);
      state.recordPrompt([text('new')]);
      assert.equal(state.turn, 2);
      assert.equal(state.turn, messages(state).filter((m) => m.role === 'user').length - 1);
    });
  });

  describe('session-wide state', () => {
    it('replaces the whole plan on each plan update', () => {
      const { state, events, flush } = manualSession();
      state.apply({
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read', priority: 'high', status: 'in_progress' },
          { content: 'Edit', priority: 'medium', status: 'pending' },
        ],
      });
      state.apply({ sessionUpdate: 'plan', entries: [{ content: 'Edit', priority: 'medium', status: 'completed' }] });
      assert.deepEqual(state.plan, [{ content: 'Edit', priority: 'medium', status: 'completed' }]);
      flush();
      assert.equal(events.length, 1);
      assert.equal(events[0].plan, true);
    });

    it('keeps mode, commands, config options, title and usage', () => {
      const state = new SessionState({
        sessionId: 's',
        cwd: '/p',
        modes: { currentModeId: 'default', availableModes: [{ id: 'default', name: 'Manual' }, { id: 'plan', name: 'Plan' }] },
        schedule: () => {},
      });
      assert.equal(state.currentModeId, 'default');
      state.apply({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
      state.apply({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review' }] });
      state.apply({
        sessionUpdate: 'config_option_update',
        configOptions: [{ id: 'fast', name: 'Fast', type: 'boolean', currentValue: true }],
      });
      state.apply({ sessionUpdate: 'session_info_update', title: 'Fix the bug', updatedAt: '2026-01-01T00:00:00Z' });
      state.apply({ sessionUpdate: 'usage_update', used: 10, size: 100, cost: { amount: 0.5, currency: 'USD' } });
      state.apply({ sessionUpdate: 'usage_update', used: 20, size: 100 });
      assert.equal(state.currentModeId, 'plan');
      assert.deepEqual(state.availableModes.map((m) => m.id), ['default', 'plan']);
      assert.deepEqual(state.availableCommands.map((c) => c.name), ['review']);
      assert.equal(state.configOptions[0].id, 'fast');
      assert.equal(state.title, 'Fix the bug');
      assert.deepEqual(state.usage, { used: 20, size: 100, cost: { amount: 0.5, currency: 'USD' } }, 'cumulative cost is kept');
      state.apply({ sessionUpdate: 'session_info_update', updatedAt: '2026-01-02T00:00:00Z' });
      assert.equal(state.title, 'Fix the bug', 'an absent title leaves it');
      state.apply({ sessionUpdate: 'session_info_update', title: null });
      assert.equal(state.title, undefined, 'null clears it');
    });

    it('does not signal a change when an update repeats what the session holds', () => {
      const { state, events, flush } = manualSession();
      state.apply({ sessionUpdate: 'usage_update', used: 1, size: 2 });
      flush();
      state.apply({ sessionUpdate: 'usage_update', used: 1, size: 2 });
      state.apply({ sessionUpdate: 'current_mode_update', currentModeId: 'x' });
      state.apply({ sessionUpdate: 'current_mode_update', currentModeId: 'x' });
      flush();
      assert.equal(events.length, 2);
      assert.equal(events[1].usage, false);
      assert.equal(events[1].mode, true);
    });
  });

  describe('tolerance', () => {
    it('ignores an unknown variant with a warning and keeps going', () => {
      const warned: string[] = [];
      const { state } = manualSession({ onWarning: (m) => warned.push(m) });
      assert.doesNotThrow(() => state.apply({ sessionUpdate: 'teleport', where: 'mars' } as unknown as SessionUpdate));
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('still here') });
      assert.equal(messages(state)[0].text, 'still here');
      assert.equal(state.warningCount, 1);
      assert.match(warned[0], /unknown session\/update "teleport"/);
    });

    it('never throws on malformed updates', () => {
      const { state } = manualSession();
      const garbage = [
        { sessionUpdate: 'plan', entries: 'nope' },
        { sessionUpdate: 'tool_call', title: 'no id' },
        { sessionUpdate: 'tool_call_update', toolCallId: 7 },
        { sessionUpdate: 'agent_message_chunk' },
        { sessionUpdate: 'available_commands_update' },
        { sessionUpdate: 'plan_update' },
        { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c' },
        null,
      ] as unknown as SessionUpdate[];
      for (const update of garbage) assert.doesNotThrow(() => state.apply(update));
      assert.equal(state.warningCount, garbage.length);
      assert.equal(state.toolCalls().length, 0);
    });

    it('creates a call from an update for an unknown id and says so', () => {
      const { state, events, flush } = manualSession();
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'late', status: 'in_progress', title: 'Edit a.ts' });
      flush();
      assert.equal(state.toolCall('late')?.title, 'Edit a.ts');
      assert.deepEqual([...events[0].newToolCalls], ['late']);
      assert.match(state.warnings[0], /unknown tool call "late"/);
    });

    it('keeps only the latest warnings', () => {
      const { state } = manualSession();
      for (let i = 0; i < 250; i++) state.apply({ sessionUpdate: `x${i}` } as unknown as SessionUpdate);
      assert.equal(state.warningCount, 250);
      assert.equal(state.warnings.length, 100);
      assert.match(state.warnings[99], /x249/);
    });
  });

  describe('tool calls and display terminals', () => {
    it('shows a terminal card when output arrives before terminal_info', () => {
      const { state, events, flush } = manualSession();
      state.apply({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'npm test', kind: 'execute' });
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'run', _meta: { terminal_output: { terminal_id: 'T', data: 'PASS\n' } } });
      flush();
      assert.equal(state.toolCall('run')!.terminalId, 'T');
      assert.equal(state.terminal('T')!.output.text, 'PASS\n');
      assert.deepEqual([...events[0].terminals], ['T']);
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'run', _meta: { terminal_info: { terminal_id: 'T', cwd: '/p' } } });
      state.apply({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'run',
        status: 'completed',
        _meta: { terminal_exit: { terminal_id: 'T', exit_code: 0, signal: null } },
      });
      assert.equal(state.terminal('T')!.cwd, '/p');
      assert.deepEqual(state.terminal('T')!.exit, { exitCode: 0, signal: null });
      assert.equal(state.toolCall('run')!.status, 'completed');
    });

    it('a terminal message that changes nothing schedules no refresh; one that does names the terminal and its call', () => {
      const { state, events, flushes, flush } = manualSession();
      state.apply({ sessionUpdate: 'tool_call', toolCallId: 'run', title: 'npm test', kind: 'execute', _meta: { terminal_info: { terminal_id: 'T' } } });
      flush();
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'run', _meta: { terminal_output: { terminal_id: 'T', data: '' } } });
      assert.equal(flushes.length, 0, 'empty output of a known terminal is not a change');
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'other', title: 'x' });
      flush();
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'other', _meta: { terminal_output: { terminal_id: 'U', data: 'late\n' } } });
      flush();
      const last = events[events.length - 1];
      assert.deepEqual([...last.terminals], ['U']);
      assert.deepEqual([...last.toolCalls], ['other'], 'output naming a call without a terminal links it: its card changes');
      assert.equal(state.toolCall('other')!.terminalId, 'U');
    });

    it('reports a replaced diff so open editors reload', () => {
      const { state, events, flush } = manualSession();
      state.apply({
        sessionUpdate: 'tool_call',
        toolCallId: 'e',
        title: 'Edit a.ts',
        content: [{ type: 'diff', path: '/p/a.ts', oldText: 'x', newText: 'y' }],
      });
      flush();
      state.apply({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'e',
        content: [{ type: 'diff', path: '/p/a.ts', oldText: '1\nx\n2', newText: '1\ny\n2' }],
      });
      flush();
      assert.deepEqual([...events[0].newToolCalls], ['e']);
      assert.deepEqual([...events[0].contentReplaced], []);
      assert.deepEqual([...events[1].contentReplaced], ['e']);
      assert.deepEqual([...events[1].newToolCalls], []);
      assert.equal(state.toolCall('e')!.contentRevision, 1);
    });

    it('lists tool calls in arrival order', () => {
      const { state } = manualSession();
      for (const id of ['c', 'a', 'b']) state.apply({ sessionUpdate: 'tool_call', toolCallId: id, title: id });
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'a', status: 'completed' });
      assert.deepEqual(state.toolCalls().map((c) => c.id), ['c', 'a', 'b']);
    });
  });

  describe('coalesced change events', () => {
    it('turns a storm of 10,000 updates into one event', () => {
      const { state, events, flushes, flush } = manualSession();
      for (let i = 0; i < 10_000; i++) {
        state.apply({ sessionUpdate: 'tool_call', toolCallId: `t${i % 100}`, title: `call ${i}` });
        state.apply({ sessionUpdate: 'agent_message_chunk', content: text('.') });
      }
      assert.equal(flushes.length, 1, 'one flush scheduled for the whole storm');
      flush();
      assert.equal(events.length, 1);
      assert.equal(events[0].toolCalls.size, 100);
      assert.equal(events[0].updates, 20_000);
      assert.equal(events[0].transcript, true);
    });

    it('gives a handful of events when flushes interleave the storm', () => {
      const { state, events, flush } = manualSession();
      for (let i = 0; i < 10_000; i++) {
        state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'x', rawOutput: i });
        if (i % 2500 === 2499) flush();
      }
      flush();
      assert.equal(events.length, 4);
      assert.equal(events.reduce((n, e) => n + e.updates, 0), 10_000);
    });

    it('with the default scheduler, a synchronous storm is one event a frame later', async () => {
      const state = new SessionState({ sessionId: 's', cwd: '/p' });
      const events: SessionChanges[] = [];
      state.onDidChange((c) => events.push(c));
      for (let i = 0; i < 10_000; i++) state.apply({ sessionUpdate: 'usage_update', used: i, size: 10_000 });
      assert.equal(events.length, 0, 'nothing delivered synchronously');
      await new Promise((resolve) => setTimeout(resolve, 40));
      assert.equal(events.length, 1);
      assert.equal(state.usage?.used, 9_999);
    });

    it('flushNow delivers at once; the scheduled flush then has nothing to send', () => {
      const { state, events, flush } = manualSession();
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('x') });
      state.flushNow();
      assert.equal(events.length, 1);
      flush();
      assert.equal(events.length, 1);
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('y') });
      flush();
      assert.equal(events.length, 2);
    });

    it('holds a replay back while loading and delivers it as one event on release', () => {
      const { state, events, flushes, flush } = manualSession();
      const release = state.holdChanges();
      for (let i = 0; i < 1000; i++) {
        state.apply({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: `call ${i}` });
        if (i % 100 === 99) {
          flush();
          state.flushNow();
        }
      }
      assert.equal(flushes.length, 0, 'no flush scheduled while held');
      assert.equal(events.length, 0, 'nothing delivered while held, flushNow included');
      assert.equal(state.toolCalls().length, 1000, 'the state itself is up to date meanwhile');
      release();
      assert.equal(events.length, 1);
      assert.equal(events[0].toolCalls.size, 1000);
      assert.equal(events[0].newToolCalls.size, 1000);
      assert.equal(events[0].updates, 1000);
      release();
      assert.equal(events.length, 1, 'a second release is a no-op');
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('live') });
      assert.equal(flushes.length, 1, 'after the release, changes are scheduled as usual');
      flush();
      assert.equal(events.length, 2);
    });

    it('a flush scheduled before the hold delivers nothing until the last hold is released', () => {
      const { state, events, flushes, flush } = manualSession();
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('early') });
      assert.equal(flushes.length, 1);
      const outer = state.holdChanges();
      const inner = state.holdChanges();
      flush();
      assert.equal(events.length, 0);
      inner();
      assert.equal(events.length, 0, 'still held by the other hold');
      outer();
      assert.equal(events.length, 1);
      assert.equal(events[0].transcript, true);
    });

    it('a released hold with nothing applied delivers no event', () => {
      const { state, events } = manualSession();
      state.holdChanges()();
      assert.equal(events.length, 0);
    });

    it('a throwing listener does not starve the others', () => {
      const { state, events, flush } = manualSession();
      state.onDidChange(() => {
        throw new Error('broken renderer');
      });
      const late: SessionChanges[] = [];
      state.onDidChange((c) => late.push(c));
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('x') });
      flush();
      assert.equal(events.length, 1);
      assert.equal(late.length, 1);
      assert.match(state.warnings.join('\n'), /broken renderer/);
    });

    it('stops delivering after a listener is disposed or the session is disposed', () => {
      const { state, events, flush } = manualSession();
      const other: SessionChanges[] = [];
      const subscription = state.onDidChange((c) => other.push(c));
      subscription.dispose();
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('x') });
      flush();
      assert.equal(other.length, 0);
      assert.equal(events.length, 1);
      state.dispose();
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('y') });
      flush();
      assert.equal(events.length, 1);
      assert.equal(messages(state)[0].text, 'xy', 'state stays readable');
    });
  });
});
