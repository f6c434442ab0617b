/**
 * The client's own session/update validation over real stdio: AgentConnection with a real agent
 * process (a few lines of Node speaking ndjson) and the real SDK. A malformed update is rejected
 * and logged once per kind of problem; what is valid, and kinds newer than the client, get
 * through in order (the latter only because the SDK's session router, whose zod schema would
 * drop them, is removed).
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { AgentConnection, type ClientRequestHandlers } from '../../src/extension/wire/agentConnection';
import type { Logger } from '../../src/extension/base/log';

/** Answers initialize, then sends the updates given in argv[1] as JSON, one notification each. */
const AGENT = `
const updates = JSON.parse(process.argv[1]);
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  buffer += text;
  let end;
  while ((end = buffer.indexOf('\\n')) >= 0) {
    const message = JSON.parse(buffer.slice(0, end));
    buffer = buffer.slice(end + 1);
    if (message.method !== 'initialize') continue;
    const out = [{ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, agentCapabilities: {} } }];
    for (const update of updates) out.push({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } });
    process.stdout.write(out.map((m) => JSON.stringify(m) + '\\n').join(''));
  }
});
`;

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: unknown) => void lines.push(`${level}: ${String(message)}`);
  return { lines, trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'), show: () => undefined };
}

const unused = new Proxy({} as ClientRequestHandlers, {
  get: () => () => Promise.reject(new Error('not expected in this test')),
});

describe('session/update validation over real stdio', function () {
  this.timeout(30_000);
  let connection: AgentConnection | undefined;
  const cwd = mkdtempSync(path.join(tmpdir(), 'acp-update-validation-'));
  after(async () => {
    await connection?.dispose();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('rejects malformed updates with one log line per kind of problem; newer values are dropped, the rest arrive in order', async () => {
    const updates = [
      { sessionUpdate: 'tool_call', toolCallId: 'bad1', title: 'Read', status: 42 },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'first' } },
      // A status newer than this client: the call still arrives, without it.
      { sessionUpdate: 'tool_call', toolCallId: 'newer', title: 'Read', status: 'finished' },
      { sessionUpdate: 'future_kind', anything: 1 },
      { sessionUpdate: 'future_kind', anything: 2 },
      { sessionUpdate: 'plan', entries: [{ content: 'x', priority: 'high' }] },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'last' } },
    ];
    const log = recordingLogger();
    const received: acp.SessionNotification[] = [];
    let done!: () => void;
    const last = new Promise<void>((resolve) => (done = resolve));
    connection = await AgentConnection.start({
      launch: { name: 'validation', command: process.execPath, args: ['-e', AGENT, JSON.stringify(updates)], env: {}, cwd },
      handlers: unused,
      log,
      onSessionUpdate: (notification) => {
        received.push(notification);
        const { update } = notification;
        if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text' && update.content.text === 'last') done();
      },
    });
    await last;
    assert.deepEqual(
      received.map((n) => n.update.sessionUpdate),
      ['agent_message_chunk', 'tool_call', 'future_kind', 'future_kind', 'agent_message_chunk'],
    );
    const newer = received[1]?.update as { toolCallId?: string; status?: string };
    assert.equal(newer.toolCallId, 'newer');
    assert.equal('status' in newer, false);
    const rejected = log.lines.filter((line) => line.includes('rejected'));
    assert.equal(rejected.length, 2, rejected.join('\n'));
    assert.match(rejected[0], /^warn: \[validation\] session\/update "tool_call" rejected: status must be one of pending, in_progress, completed, failed \(or absent\), got number 42/);
    assert.match(rejected[1], /session\/update "plan" rejected: entries\[0\]\.status must be/);
    assert.deepEqual(
      log.lines.filter((line) => line.includes('newer than')),
      [
        'info: [validation] session/update tool_call.status "finished" is newer than ACP Native: the call is shown without it (logged once).',
        'info: [validation] session/update "future_kind" is newer than ACP Native: ignored (logged once).',
      ],
    );
    assert.ok(!log.lines.some((line) => line.includes('session router was not found')), log.lines.join('\n'));
  });
});
