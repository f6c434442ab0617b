import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import { toolReportOf } from '../../../src/extension/session/model/agentMeta';
import { SessionState } from '../../../src/extension/session/model/sessionState';

/** A real turn of Claude's ACP adapter (see test/fixtures/acp/README.md). */
const FIXTURE = join(__dirname, '../../fixtures/acp/claude-agent-acp-turn.jsonl');

function toolCallMessages(): { toolCallId: string; _meta?: unknown }[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { dir: string; msg: { method?: string; params?: SessionNotification } })
    .filter((r) => r.dir === 'in' && r.msg.method === 'session/update')
    .map((r) => r.msg.params!.update)
    .filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update') as { toolCallId: string; _meta?: unknown }[];
}

describe("agent quirks: what Claude's adapter says in a tool call's _meta", () => {
  const messages = toolCallMessages();
  const reportsOf = (id: string) => messages.filter((m) => m.toolCallId === id).flatMap((m) => toolReportOf(m._meta) ?? []);

  it("reads the Edit's copy of the original from the one message that carries its tool response", () => {
    assert.deepEqual(reportsOf('toolu_stub_02_edit'), [{ original: { path: '/home/user/project/hello.txt', text: 'hello world\n' } }]);
  });

  it('reads a Write of a new file as a file that was not there', () => {
    assert.deepEqual(reportsOf('toolu_stub_03_write'), [{ original: { path: '/home/user/project/notes/new.txt', text: null } }]);
  });

  it("takes a Read's tool response for a report that names no original, and a Bash's messages for none", () => {
    assert.deepEqual(reportsOf('toolu_stub_01_read'), [{ original: undefined }]);
    assert.deepEqual(reportsOf('toolu_stub_04_bash'), []);
  });

  it('reads anything of another shape as nothing said', () => {
    for (const meta of [undefined, null, 'x', 1, [], {}, { claudeCode: null }, { claudeCode: { toolResponse: 'done' } }, { claudeCode: { toolResponse: null } }]) {
      assert.equal(toolReportOf(meta), undefined, JSON.stringify(meta));
    }
    assert.deepEqual(toolReportOf({ claudeCode: { toolResponse: { filePath: '/p/a', originalFile: 3 } } }), { original: undefined });
    assert.deepEqual(toolReportOf({ claudeCode: { toolResponse: { filePath: 7, originalFile: 'x' } } }), { original: undefined });
  });

  it("hands the store's listener each message's _meta with the merged call, even a message that changes nothing the call keeps", () => {
    const seen: { id: string; changed: boolean; original: unknown }[] = [];
    const state = new SessionState({
      sessionId: 's',
      cwd: '/home/user/project',
      schedule: () => undefined,
      onToolCallApplied: (applied) => seen.push({ id: applied.call.id, changed: applied.changed, original: toolReportOf(applied.meta)?.original }),
    });
    for (const m of messages) state.apply(m as SessionUpdate);
    assert.equal(seen.length, messages.length);
    const write = seen.filter((s) => s.id === 'toolu_stub_03_write' && s.original !== undefined);
    // Its tool response comes alone: nothing the call keeps changes, and the listener still hears it.
    assert.deepEqual(write, [{ id: 'toolu_stub_03_write', changed: false, original: { path: '/home/user/project/notes/new.txt', text: null } }]);
  });
});
