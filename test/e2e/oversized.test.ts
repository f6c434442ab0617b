/**
 * The bundled agent and client messages over the ACP size limit (32 MiB, the SDK's): a huge
 * prompt is answered with an error and the session goes on, a huge response fails the agent's
 * request it answers, a huge notification is skipped, and none of them is held whole in memory.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { AGENT_JS, AgentUnderTest } from './harness/agentProcess';
import { cardText, fold } from './harness/cards';
import { EditorFs } from './harness/clientFs';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

const MiB = 2 ** 20;
const LIMIT = acp.DEFAULT_MAX_MESSAGE_BYTES;
const HUGE = 50 * MiB;
/**
 * The most the agent's peak memory may grow by while it skips a line. The guard holds at most the
 * limit before it knows a line is too long; the stdin buffers it drops wait for a collection, so
 * as much again, and room for the heap. A line held whole costs several times its size (its
 * bytes, its text, its parse): a 32 MiB prompt served grows the peak by about 200 MiB.
 */
const SKIP_GROWTH_BOUND = 2 * LIMIT + 32 * MiB;

/** The agent's peak resident memory so far, in bytes (Linux), or undefined elsewhere. */
function peakRss(pid: number | undefined): number | undefined {
  const status = `/proc/${pid}/status`;
  if (pid === undefined || !existsSync(status)) return undefined;
  const kib = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(status, 'utf8'))?.[1];
  return kib === undefined ? undefined : Number(kib) * 1024;
}

function assertSkipGrowth(growth: number): void {
  assert.ok(growth < SKIP_GROWTH_BOUND, `the peak memory grew by ${(growth / MiB).toFixed(1)} MiB, over ${SKIP_GROWTH_BOUND / MiB} MiB`);
}

/** The error a request was answered with. */
async function rejection(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await request;
  } catch (error) {
    if (error instanceof acp.RequestError) return { code: error.code, message: error.message };
    throw error;
  }
  assert.fail('the request was answered without an error');
}

describe('bundled agent: client messages over the size limit', function () {
  this.timeout(60_000);
  const agents: AgentUnderTest[] = [];
  const start = async (fs?: EditorFs) => {
    const agent = await AgentUnderTest.start({ stateDir: tempDir('state'), terminalOutput: false, ...(fs ? { fs } : {}) });
    agents.push(agent);
    const ws = tempWorkspace();
    const { sessionId } = await agent.newSession(ws);
    return { agent, ws, sessionId };
  };
  /** A plain prompt answered: the agent and the session still serve. */
  const servesNextPrompt = async (agent: AgentUnderTest, sessionId: string) => {
    const { stopReason, updates } = await agent.prompt(sessionId, '/help');
    assert.equal(stopReason, 'end_turn');
    assert.ok(updates.some((u) => u.sessionUpdate === 'agent_message_chunk'), 'the help text came back');
  };

  after(async () => {
    for (const agent of agents) {
      assert.deepEqual(agent.validator.errors, []);
      assert.equal(await agent.stop(), 0, agent.stderr);
    }
    removeTempDirs();
  });

  it('answers a 50 MB prompt with an error naming its size and the limit, and serves the next prompt in the session', async () => {
    const { agent, sessionId } = await start();
    const before = peakRss(agent.pid);
    const answer = await rejection(agent.prompt(sessionId, 'x'.repeat(HUGE)));
    const after = peakRss(agent.pid);
    if (before !== undefined && after !== undefined) assertSkipGrowth(after - before);
    assert.equal(answer.code, -32600);
    assert.match(answer.message, new RegExp(`the message is \\d+ bytes \\(50\\.\\d MiB\\), over the ${LIMIT} bytes \\(32 MiB\\) limit of ACP messages`));
    await servesNextPrompt(agent, sessionId);
    assert.match(agent.stderr, /skipped a message of \d+ bytes .* answered request \d+ \(session\/prompt\) with an error/);
  });

  it('serves a prompt just under the limit', async () => {
    const { agent, sessionId } = await start();
    const { stopReason } = await agent.prompt(sessionId, 'x'.repeat(LIMIT - 1024));
    assert.equal(stopReason, 'end_turn');
    await servesNextPrompt(agent, sessionId);
  });

  it("fails the agent's read when the client answers it with a file over the limit, and goes on", async () => {
    const fs = new EditorFs();
    const { agent, ws, sessionId } = await start(fs);
    const file = path.join(ws, 'huge.log');
    fs.unsaved.set(file, 'log line\n'.repeat(HUGE / 9));
    const [card] = fold((await agent.prompt(sessionId, `/read ${file}`)).updates).cards;
    assert.equal(card?.status, 'failed');
    assert.match(cardText(card!), new RegExp(`the client.s response is \\d+ bytes \\([\\d.]+ MiB\\), over the ${LIMIT} bytes`));
    assert.match(agent.stderr, /the client's response to request \d+, which fails/);
    fs.unsaved.delete(file);
    await servesNextPrompt(agent, sessionId);
  });

  it('skips a 50 MB notification with a line on stderr, and serves the next prompt', async () => {
    const { agent, sessionId } = await start();
    await agent.agent.notify(acp.methods.agent.session.cancel, { sessionId, _meta: { pad: 'x'.repeat(HUGE) } });
    await servesNextPrompt(agent, sessionId);
    assert.match(agent.stderr, /skipped a message of \d+ bytes .*: the session\/cancel notification \(no id before its params\), not answered/);
  });
});

describe('bundled agent: a line far over the limit, written raw', function () {
  this.timeout(60_000);
  after(removeTempDirs);

  it('streams a 200 MB line past without holding it: its peak memory grows by less than the limit and some room', async () => {
    const child = spawn(process.execPath, [AGENT_JS, '--state-dir', tempDir('state')], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stderr.resume();
    const responses = new Map<number, Record<string, unknown>>();
    const waiters = new Map<number, () => void>();
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: number };
        if (typeof message.id !== 'number') continue;
        responses.set(message.id, message);
        waiters.get(message.id)?.();
      }
    });
    const answered = (id: number) => new Promise<Record<string, unknown>>((resolve) => {
      if (responses.has(id)) resolve(responses.get(id)!);
      else waiters.set(id, () => resolve(responses.get(id)!));
    });
    const write = async (data: string | Buffer) => {
      if (!child.stdin.write(data)) await once(child.stdin, 'drain');
    };
    const initialize = (id: number) =>
      write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} } })}\n`);

    await initialize(1);
    assert.ok('result' in (await answered(1)));
    const before = peakRss(child.pid);
    await write('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"pad":"');
    const chunk = Buffer.alloc(MiB, 'x');
    for (let i = 0; i < 200; i++) await write(chunk);
    await write('"}}\n');
    const error = (await answered(2)).error as { code: number; message: string };
    const after = peakRss(child.pid);
    if (before !== undefined && after !== undefined) assertSkipGrowth(after - before);
    assert.equal(error.code, -32600);
    assert.match(error.message, /the message is \d+ bytes \(200\.0 MiB\), over the 33554432 bytes/);
    await initialize(3);
    assert.ok('result' in (await answered(3)), 'the connection goes on');
    child.stdin.end();
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 0);
  });
});
