import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionNotification } from '@agentclientprotocol/sdk';
import { SessionState, type SessionChanges } from '../../../src/extension/session/model/sessionState';
import { cardOf } from '../../../src/extension/session/model/toolCalls';
import { callChildren, labelOf } from '../../../src/extension/cards/tree/model/treeModel';
import type { MessageEntry } from '../../../src/extension/session/model/transcript';

/** A real turn of Claude's ACP adapter (see test/fixtures/acp/README.md). */
const FIXTURE = join(__dirname, '../../fixtures/acp/claude-agent-acp-turn.jsonl');

interface Recorded {
  seq: number;
  dir: 'in' | 'out';
  msg: { method?: string; params?: unknown };
}

function sessionUpdates(): SessionNotification[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Recorded)
    .filter((r) => r.dir === 'in' && r.msg.method === 'session/update')
    .map((r) => r.msg.params as SessionNotification);
}

describe("SessionState fed a real turn of Claude's ACP adapter", () => {
  const notifications = sessionUpdates();
  let state: SessionState;
  const events: SessionChanges[] = [];

  before(() => {
    const flushes: (() => void)[] = [];
    state = new SessionState({
      sessionId: 'd8fb2b4b-d0a4-4114-a629-234e7771277d',
      cwd: '/home/user/project',
      schedule: (flush) => flushes.push(flush),
    });
    state.onDidChange((c) => events.push(c));
    for (const notification of notifications) {
      assert.doesNotThrow(() => state.applyNotification(notification));
    }
    for (const flush of flushes.splice(0)) flush();
  });

  it('reads every session/update of the turn without a warning', () => {
    assert.equal(notifications.length, 48);
    assert.deepEqual(state.warnings, []);
    assert.equal(events.length, 1);
    assert.equal(events[0].updates, 48);
  });

  it('has the four tool calls in order, with their final titles and statuses', () => {
    assert.deepEqual(
      state.toolCalls().map((c) => [c.id, c.title, c.kind, c.status, cardOf(c)]),
      [
        ['toolu_stub_01_read', 'Read hello.txt', 'read', 'completed', 'generic'],
        ['toolu_stub_02_edit', 'Edit hello.txt', 'edit', 'completed', 'diff'],
        ['toolu_stub_03_write', 'Write notes/new.txt', 'edit', 'completed', 'diff'],
        ['toolu_stub_04_bash', "printf 'a\\nb\\n'; exit 3", 'execute', 'failed', 'terminal'],
      ],
    );
  });

  it("ends the Edit's content as the applied hunk, not the call-time snippet", () => {
    const edit = state.toolCall('toolu_stub_02_edit')!;
    assert.deepEqual(edit.content, [{ type: 'diff', path: '/home/user/project/hello.txt', oldText: 'hello world', newText: 'hello ACP' }]);
    assert.equal(edit.contentRevision, 2, 'empty → snippet "world"→"ACP" → applied hunk (whole lines)');
    assert.deepEqual(edit.locations, [{ path: '/home/user/project/hello.txt', line: 1 }]);
    assert.deepEqual(edit.rawInput, { replace_all: false, file_path: '/home/user/project/hello.txt', old_string: 'world', new_string: 'ACP' });
  });

  it('gives the Write a null oldText (a new file)', () => {
    const write = state.toolCall('toolu_stub_03_write')!;
    assert.equal(write.content.length, 1);
    const [diff] = write.content;
    assert.equal(diff.type, 'diff');
    if (diff.type !== 'diff') return;
    assert.equal(diff.oldText, null);
    assert.equal(diff.path, '/home/user/project/notes/new.txt');
    assert.equal(diff.newText, 'first line\nsecond line\n');
  });

  it('gives the Bash card a display terminal with its output and exit code 3', () => {
    const bash = state.toolCall('toolu_stub_04_bash')!;
    assert.equal(bash.terminalId, 'toolu_stub_04_bash');
    const terminal = state.terminal('toolu_stub_04_bash')!;
    assert.equal(terminal.toolCallId, 'toolu_stub_04_bash');
    assert.equal(terminal.announced, true);
    assert.ok(terminal.output.text.includes('Exit code 3'));
    assert.equal(terminal.output.text, 'Exit code 3\na\nb');
    assert.deepEqual(terminal.exit, { exitCode: 3, signal: null });
    assert.equal(state.terminals().length, 1);
  });

  it("keeps the Read's text result", () => {
    const read = state.toolCall('toolu_stub_01_read')!;
    assert.deepEqual(read.content, [{ type: 'content', content: { type: 'text', text: '```\n1\thello world\n```' } }]);
    assert.equal(read.rawOutput, '1\thello world\n2\t');
  });

  it("labels the Read's text child in the tree by the file's first line, not its code fence", () => {
    const [text] = callChildren('s', state.toolCall('toolu_stub_01_read')!);
    assert.ok(text?.type === 'text');
    assert.equal(labelOf(text.text), '1 hello world');
  });

  it("has the agent's words and thoughts in the transcript, tool calls in between", () => {
    const summary = state.transcript.map((e) => (e.type === 'message' ? `${e.role}: ${e.text}` : e.type === 'toolCall' ? `[${e.id}]` : e.type));
    assert.deepEqual(summary, [
      'thought: The user wants a small tour. First I should read hello.txt.',
      'agent: Let me look at hello.txt first.',
      '[toolu_stub_01_read]',
      "agent: Now I'll change 'world' to 'ACP'.",
      '[toolu_stub_02_edit]',
      '[toolu_stub_03_write]',
      'agent: Finally, a shell command that fails on purpose.',
      '[toolu_stub_04_bash]',
      "agent: Done. I read hello.txt, replaced 'world' with 'ACP', wrote notes/new.txt, and ran a command that printed two lines and exited with status 3.",
    ]);
    const last = state.transcript.at(-1) as MessageEntry;
    assert.equal(last.messageId, 'msg_stub_0006');
  });

  it('records usage (with the final cost), commands and the session title', () => {
    assert.deepEqual(state.usage, { used: 120, size: 1_000_000, cost: { amount: 0.0048000000000000004, currency: 'USD' } });
    assert.equal(state.availableCommands.length, 40, 'the second commands update replaced the first');
    assert.ok(state.availableCommands.some((c) => c.name === 'code-review'));
    assert.equal(state.title, "Read hello.txt, change 'world' to 'ACP', write notes/new.txt, then run a shell command.");
    assert.equal(state.updatedAt, '2026-11-30T13:18:42.714Z');
  });

  it('applying the permission request\'s tool call again changes nothing', () => {
    // The adapter repeats the whole call in session/request_permission; an adapter may apply it.
    const before = state.toolCall('toolu_stub_03_write')!.revision;
    state.apply({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'toolu_stub_03_write',
      title: 'Write notes/new.txt',
      kind: 'edit',
      content: [{ type: 'diff', path: '/home/user/project/notes/new.txt', oldText: null, newText: 'first line\nsecond line\n' }],
      locations: [{ path: '/home/user/project/notes/new.txt' }],
    });
    assert.equal(state.toolCall('toolu_stub_03_write')!.revision, before);
  });
});
