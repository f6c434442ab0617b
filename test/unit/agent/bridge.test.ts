/** Every arm of the bridge: the exact ACP wire shape of each card kind, live and on replay. */
import * as assert from 'node:assert/strict';
import { callToAcp, consoleFallback, permissionToolCall, resultToAcp, terminalOutputToAcp } from '../../../src/agent/bridge';

const cwd = '/home/user/project';
const withTerminals = { cwd, terminalOutput: true };
const withoutTerminals = { cwd, terminalOutput: false };
const live = { outputStreamed: true };
const replay = { outputStreamed: false };

describe('bridge', () => {
  describe('calls', () => {
    it('generic → content, kind, rawInput, locations (paths absolute, title relative)', () => {
      const call = callToAcp(
        't1',
        {
          card: 'generic',
          title: `Read ${cwd}/src/a.ts`,
          kind: 'read',
          rawInput: { path: `${cwd}/src/a.ts` },
          content: [{ type: 'text', text: 'hi' }],
          locations: [{ path: `${cwd}/src/a.ts`, line: 3 }],
        },
        withTerminals,
      );
      assert.deepEqual(call, {
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        status: 'pending',
        title: 'Read src/a.ts',
        kind: 'read',
        content: [{ type: 'content', content: { type: 'text', text: 'hi' } }],
        locations: [{ path: `${cwd}/src/a.ts`, line: 3 }],
        rawInput: { path: `${cwd}/src/a.ts` },
      });
    });

    it('generic without a kind is "other"', () => {
      assert.equal(callToAcp('t', { card: 'generic', title: 'x' }, withTerminals).kind, 'other');
    });

    it('terminal with display terminals → terminal content + _meta.terminal_info', () => {
      assert.deepEqual(callToAcp('t2', { card: 'terminal', title: 'ls -la', description: 'List files', cwd }, withTerminals), {
        sessionUpdate: 'tool_call',
        toolCallId: 't2',
        status: 'pending',
        title: 'ls -la',
        kind: 'execute',
        content: [
          { type: 'content', content: { type: 'text', text: 'List files' } },
          { type: 'terminal', terminalId: 't2' },
        ],
        _meta: { terminal_info: { terminal_id: 't2', cwd } },
      });
    });

    it('terminal without display terminals → no terminal content, no _meta', () => {
      const call = callToAcp('t3', { card: 'terminal', title: 'ls' }, withoutTerminals);
      assert.deepEqual(call.content, []);
      assert.equal(call._meta, undefined);
    });

    it('diff → ACP diff content, kind edit, title relative to diffs[0].path', () => {
      const call = callToAcp(
        't4',
        { card: 'diff', title: `Edit ${cwd}/a.ts`, diffs: [{ path: `${cwd}/a.ts`, oldText: 'a', newText: 'b' }], locations: [{ path: `${cwd}/a.ts` }] },
        withTerminals,
      );
      assert.equal(call.title, 'Edit a.ts');
      assert.equal(call.kind, 'edit');
      assert.deepEqual(call.content, [{ type: 'diff', path: `${cwd}/a.ts`, oldText: 'a', newText: 'b' }]);
      assert.deepEqual(call.locations, [{ path: `${cwd}/a.ts` }]);
    });

    it('a permission request carries the call without its sessionUpdate tag', () => {
      const call = callToAcp('t5', { card: 'generic', title: 'x' }, withTerminals);
      const { sessionUpdate: _tag, ...rest } = call;
      assert.deepEqual(permissionToolCall(call), rest);
    });
  });

  describe('results', () => {
    it('generic → status and content (content left alone when the view has none)', () => {
      assert.deepEqual(resultToAcp('t', { card: 'generic', content: [{ type: 'text', text: 'done' }] }, 'completed', withTerminals, live), [
        { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'done' } }] },
      ]);
      assert.deepEqual(resultToAcp('t', { card: 'generic' }, 'completed', withTerminals, live), [
        { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' },
      ]);
    });

    it('terminal, live: output already streamed, so only terminal_exit with the status', () => {
      assert.deepEqual(resultToAcp('t', { card: 'terminal', output: 'a\n', exitCode: 3 }, 'failed', withTerminals, live), [
        { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'failed', _meta: { terminal_exit: { terminal_id: 't', exit_code: 3, signal: null } } },
      ]);
    });

    it('terminal, replay: the whole output as one terminal_output, then terminal_exit', () => {
      assert.deepEqual(resultToAcp('t', { card: 'terminal', output: 'a\n', signal: 'SIGTERM' }, 'failed', withTerminals, replay), [
        terminalOutputToAcp('t', 'a\n'),
        { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'failed', _meta: { terminal_exit: { terminal_id: 't', exit_code: null, signal: 'SIGTERM' } } },
      ]);
    });

    it('terminal without display terminals: a fenced console block derived in the bridge', () => {
      assert.deepEqual(resultToAcp('t', { card: 'terminal', output: 'hi\n', exitCode: 0 }, 'completed', withoutTerminals, live), [
        { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '```console\nhi\n```' } }] },
      ]);
    });

    it('the console fallback states a failure, and cannot be closed by the output', () => {
      assert.equal(consoleFallback({ card: 'terminal', output: 'x', exitCode: 2 }), '```console\nx\n```\nExit code 2');
      assert.equal(consoleFallback({ card: 'terminal', output: 'x', signal: 'SIGKILL' }), '```console\nx\n```\nKilled by SIGKILL');
      assert.equal(consoleFallback({ card: 'terminal', output: '```\ninner\n```\n' }), '````console\n```\ninner\n```\n````');
    });

    it('diff → one diff item per hunk with a location per hunk, replacing the snippet', () => {
      const [update] = resultToAcp(
        't',
        {
          card: 'diff',
          diffs: [
            { path: `${cwd}/a.ts`, oldText: '1\n2', newText: '1\n3' },
            { path: `${cwd}/a.ts`, oldText: '9', newText: '10' },
          ],
          locations: [{ path: `${cwd}/a.ts`, line: 1 }, { path: `${cwd}/a.ts`, line: 9 }],
        },
        'completed',
        withTerminals,
        live,
      );
      assert.deepEqual(update?.content, [
        { type: 'diff', path: `${cwd}/a.ts`, oldText: '1\n2', newText: '1\n3' },
        { type: 'diff', path: `${cwd}/a.ts`, oldText: '9', newText: '10' },
      ]);
      assert.deepEqual(update?.locations, [{ path: `${cwd}/a.ts`, line: 1 }, { path: `${cwd}/a.ts`, line: 9 }]);
      assert.equal(update?.status, 'completed');
    });
  });
});
