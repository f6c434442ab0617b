import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';
import { reloadActiveSession } from './support/reload';

const SUMMARY = 'The user asked to fix the parser. Read src/parse.ts and fixed the off-by-one in the tokenizer. Left: add a test.';

/** A file the test agent appends each prompt's text blocks to (`--record-prompts`). */
function promptRecord(name: string): { file: string; prompts(): string[][] } {
  const file = path.join(os.tmpdir(), `acp-${name}-${process.pid}-${Date.now()}.jsonl`);
  return {
    file,
    prompts: () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as string[]) : []),
  };
}

describe('compaction, notices and the context window (a Claude-like agent)', function () {
  let api: AcpNativeApi;
  const record = promptRecord('context');

  agentSuite({ agent: { name: 'claude-like', file: 'claudeLikeAgent', args: ['--record-prompts', record.file] } }, (started) => (api = started));

  after(() => fs.rmSync(record.file, { force: true }));

  it("merges Claude's compaction (in progress, completed with the summary, a status-only repeat) into one", async () => {
    await within('usage', api.prompt('usage 850000 1000000 0.42'));
    assert.deepEqual(api.contextUsage(), { used: 850_000, size: 1_000_000, cost: { amount: 0.42, currency: 'USD' } });
    await within('/compact', api.prompt('/compact'));
    const compactions = api.compactions();
    assert.equal(compactions.length, 1);
    assert.deepEqual({ ...compactions[0], id: 'x' }, { id: 'x', status: 'completed', summary: SUMMARY });
    assert.equal(api.contextUsage()?.used, 40_000, 'the usage after the compaction');
    assert.equal(api.toolCalls().length, 0, 'no tool row stands for it');
  });

  it('keeps a compaction that never completes in progress, and says so once the turn ended', async () => {
    await within('a stalled compaction', api.prompt('compact-stall'));
    assert.deepEqual({ ...api.compactions().at(-1), id: 'x' }, { id: 'x', status: 'in_progress', unfinished: true });
    await within('a failed compaction', api.prompt('compact-fail'));
    assert.deepEqual({ ...api.compactions().at(-1), id: 'x' }, { id: 'x', status: 'failed', error: 'Context too small' });
    await within('a summary in chunks', api.prompt('compact-chunks 3'));
    assert.equal(api.compactions().at(-1)?.summary, 'Part 1. Part 2. Part 3. ');
  });

  it('shows a notice as a notice, not as the answer', async () => {
    await within('a broken MCP server', api.prompt('mcp-broken'));
    assert.deepEqual(api.notices().at(-1), {
      severity: 'warning',
      title: 'MCP server "broken" failed to start',
      description: 'Its tools are unavailable in this session. Run /mcp for the error.',
    });
  });

  it('reports used > size as it is', async () => {
    await within('over the window', api.prompt('usage 1250000 1000000'));
    assert.deepEqual(api.contextUsage(), { used: 1_250_000, size: 1_000_000, cost: { amount: 0.42, currency: 'USD' } }, 'the last cost stays');
  });

  it('keeps the compactions when the session is loaded again (session/load replay)', async () => {
    const before = api.compactions().map((c) => c.status);
    await reloadActiveSession(api);
    assert.deepEqual(api.compactions().map((c) => c.status), before);
    assert.equal(api.compactions()[1]?.unfinished, true, 'a compaction the replay leaves in progress says it never finished');
  });

  it('Compact sends the agent its /compact', async () => {
    const count = api.compactions().length;
    await vscode.commands.executeCommand('acpNative.compactConversation', api.activeSessionId);
    await waitFor('the new compaction', () => api.compactions().length === count + 1 && api.compactions().at(-1)?.status === 'completed');
    assert.deepEqual(record.prompts().at(-1), ['/compact']);
  });

  it('New session from summary: a new session of the same agent whose first prompt carries the last summary', async () => {
    const old = api.activeSessionId;
    const created = await vscode.commands.executeCommand<string>('acpNative.newSessionFromSummary', old);
    assert.ok(created && created !== old);
    assert.equal(api.activeSessionId, created);
    assert.equal(api.sessions().find((s) => s.sessionId === created)?.agent, 'claude-like');
    // Through the chat (ACP: Send Prompt), so what it attached goes along.
    await within('the first prompt', Promise.resolve(vscode.commands.executeCommand('acpNative.prompt', 'Go on.')));
    const [text, carried] = record.prompts().at(-1) ?? [];
    assert.equal(text, 'Go on.');
    assert.ok(carried?.includes(SUMMARY), `the summary goes with it: ${carried}`);
  });

  it('New session from summary without a compaction asks the agent for a summary first', async () => {
    await within('a first prompt', api.prompt('fix the lexer'));
    const old = api.activeSessionId;
    const created = await vscode.commands.executeCommand<string>('acpNative.newSessionFromSummary', old);
    assert.ok(created && created !== old);
    const asked = record.prompts().at(-1)?.[0] ?? '';
    assert.match(asked, /^Summarize this conversation/);
    await within('the first prompt', Promise.resolve(vscode.commands.executeCommand('acpNative.prompt', 'Continue.')));
    const carried = record.prompts().at(-1)?.[1] ?? '';
    assert.match(carried, /Summary: the user asked \[.*"fix the lexer"\]/);
  });
});

describe('compaction and notices from a Claude-like agent that acts as if the client had not advertised them', function () {
  let api: AcpNativeApi;

  agentSuite(
    { agent: { name: 'claude-like-legacy', file: 'claudeLikeAgent', args: ['--ignore-capabilities', 'compaction,notices,boolean'] } },
    (started) => (api = started),
  );

  it('shows the "Compact conversation" tool call as the compaction, not as a tool call', async () => {
    await within('usage', api.prompt('usage 180000 200000'));
    await within('/compact', api.prompt('/compact'));
    assert.deepEqual(api.compactions().map((c) => c.status), ['completed']);
    assert.equal(api.toolCalls().length, 0);
    await within('a stalled one', api.prompt('compact-stall'));
    assert.deepEqual(api.compactions().at(-1)?.unfinished, true);
    await within('a failed one', api.prompt('compact-fail'));
    assert.deepEqual(api.compactions().at(-1)?.error, 'Context too small');
  });

  it("shows the adapter's bold status message as a notice", async () => {
    await within('a broken MCP server', api.prompt('mcp-broken'));
    await within('a warning', api.prompt('warn the CLI is old'));
    assert.deepEqual(api.notices().slice(-2), [
      { severity: 'warning', title: 'MCP server "broken" failed to start', description: 'Its tools are unavailable in this session. Run /mcp for the error.' },
      { severity: 'warning', title: 'Warning', description: 'the CLI is old' },
    ]);
  });
});
