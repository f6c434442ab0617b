/**
 * Permissions and session modes, end to end: rejected calls fail visibly and the turn goes on;
 * "always" answers hold for their class; modes decide what is asked at all.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { AgentUnderTest, type PermissionPolicy } from './harness/agentProcess';
import { cardText, fold } from './harness/cards';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

const WRITE_A = '/write a.txt\n```\nA\n```';
const WRITE_B = '/write b.txt\n```\nB\n```';

describe('permissions and modes', function () {
  this.timeout(20_000);
  const agents: AgentUnderTest[] = [];
  const start = async (permission: PermissionPolicy, terminalOutput = true): Promise<{ agent: AgentUnderTest; ws: string; sessionId: string }> => {
    const agent = await AgentUnderTest.start({ stateDir: tempDir('state'), terminalOutput, permission });
    agents.push(agent);
    const ws = tempWorkspace();
    return { agent, ws, sessionId: (await agent.newSession(ws)).sessionId };
  };

  after(async () => {
    for (const agent of agents) {
      assert.deepEqual(agent.validator.errors, []);
      await agent.stop();
    }
    removeTempDirs();
  });

  it('fails rejected calls visibly and goes on with the turn', async () => {
    const { agent, ws, sessionId } = await start((request) => {
      // The card a question is about is on screen before the question.
      const shown = agent.updates.get(request.sessionId)?.some((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === request.toolCall.toolCallId);
      assert.ok(shown, 'permission asked before its tool_call arrived');
      return 'reject_once';
    });
    const { stopReason, updates } = await agent.prompt(sessionId, `${WRITE_A}\n/run echo hi\n/read README.md`);
    assert.equal(stopReason, 'end_turn');
    const [write, run, read] = fold(updates).cards;
    assert.equal(write?.status, 'failed');
    assert.equal(cardText(write!), 'Rejected by the user.');
    assert.equal(existsSync(path.join(ws, 'a.txt')), false);
    assert.equal(run?.status, 'failed');
    assert.equal(run?.terminal?.output, 'Rejected by the user.\n');
    assert.deepEqual(run?.terminal?.exit, { exit_code: null, signal: null });
    assert.equal(read?.status, 'completed');
    assert.equal(agent.permissionRequests.length, 2);
  });

  it('shows the rejection as console text without display terminals', async () => {
    const { agent, sessionId } = await start(() => 'reject_once', false);
    const [run] = fold((await agent.prompt(sessionId, '/run echo hi')).updates).cards;
    assert.equal(run?.status, 'failed');
    assert.equal(cardText(run!), '```console\nRejected by the user.\n```');
  });

  it('remembers reject_always and allow_always per kind of call, for the session', async () => {
    const answers: acp.PermissionOptionKind[] = ['reject_always', 'allow_always'];
    const { agent, ws, sessionId } = await start(() => answers.shift() ?? 'reject_once');
    const { updates } = await agent.prompt(sessionId, `${WRITE_A}\n${WRITE_B}\n/run echo one\n/run echo two`);
    const [a, b, one, two] = fold(updates).cards;
    assert.equal(a?.status, 'failed');
    assert.equal(b?.status, 'failed');
    assert.equal(cardText(b!), 'Rejected: the user rejected all file changes in this session.');
    assert.equal(one?.status, 'completed');
    assert.equal(two?.status, 'completed');
    assert.equal(two?.terminal?.output, 'two\n');
    // Asked once for file changes, once for commands.
    assert.deepEqual(agent.permissionRequests.map((r) => r.toolCall.title), ['Write a.txt', 'echo one']);
    assert.equal(existsSync(path.join(ws, 'b.txt')), false);
  });

  it('offers ask, accept-edits and bypass as session modes, and follows them', async () => {
    const { agent, ws, sessionId } = await start(() => 'allow_once');
    const modes = (await agent.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] })).modes;
    assert.deepEqual(modes?.availableModes.map((m) => m.id), ['ask', 'accept-edits', 'bypass']);
    assert.equal(modes?.currentModeId, 'ask');

    await agent.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'accept-edits' });
    await agent.prompt(sessionId, `${WRITE_A}\n/run echo asked`);
    assert.deepEqual(agent.permissionRequests.map((r) => r.toolCall.title), ['echo asked']);
    assert.equal(readFileSync(path.join(ws, 'a.txt'), 'utf8'), 'A\n');

    await agent.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'bypass' });
    const { updates } = await agent.prompt(sessionId, `${WRITE_B}\n/run echo not asked`);
    assert.equal(agent.permissionRequests.length, 1);
    assert.deepEqual(fold(updates).cards.map((c) => c.status), ['completed', 'completed']);

    await assert.rejects(agent.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'yolo' }), /unknown mode/);
  });
});
