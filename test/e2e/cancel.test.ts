/**
 * `session/cancel`, end to end: the turn stops, the processes it started die (whole process
 * groups, background tasks of that turn included), and the prompt answers `cancelled`.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { AgentUnderTest } from './harness/agentProcess';
import { cardText, fold } from './harness/cards';
import { eventually, isAlive, pidFrom } from './harness/liveness';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

describe('cancel', function () {
  this.timeout(20_000);
  let agent: AgentUnderTest;
  let ws: string;
  let sessionId: string;

  beforeEach(async () => {
    ws = tempWorkspace();
    agent = await AgentUnderTest.start({ stateDir: tempDir('state'), terminalOutput: true, args: ['--mode', 'bypass'] });
    sessionId = (await agent.newSession(ws)).sessionId;
  });

  afterEach(async () => {
    assert.deepEqual(agent.validator.errors, []);
    await agent.stop();
  });

  after(removeTempDirs);

  it('stops a running command and everything it started, and answers cancelled', async () => {
    agent.onUpdate.push((_id, update) => {
      const output = update.sessionUpdate === 'tool_call_update' ? update._meta?.terminal_output : undefined;
      if (JSON.stringify(output ?? '').includes('ready')) void agent.cancel(sessionId);
    });
    const started = Date.now();
    const { stopReason, updates } = await agent.prompt(
      sessionId,
      '/run echo $$ > shell.pid; sleep 30 & echo $! > child.pid; echo ready; wait\n/read README.md',
    );
    assert.equal(stopReason, 'cancelled');
    assert.ok(Date.now() - started < 5000, 'cancel took too long');
    const cards = fold(updates).cards;
    assert.equal(cards.length, 1, 'the turn went on after cancel');
    assert.equal(cards[0]?.status, 'failed');
    assert.deepEqual(cards[0]?.terminal?.exit, { exit_code: null, signal: 'SIGTERM' });
    for (const file of ['shell.pid', 'child.pid']) {
      const pid = await pidFrom(path.join(ws, file));
      assert.ok(await eventually(() => !isAlive(pid)), `${file} (${pid}) still alive`);
    }
  });

  it('kills background tasks of the cancelled turn, not those of earlier turns', async () => {
    await agent.prompt(sessionId, '/run-bg echo $$ > early.pid; exec sleep 30');
    let sleeper: string | undefined;
    agent.onUpdate.push((_id, update) => {
      if (update.sessionUpdate === 'tool_call' && update.title === 'sleep 30') sleeper = update.toolCallId;
      if (update.sessionUpdate === 'tool_call_update' && update.status === 'in_progress' && update.toolCallId === sleeper) {
        setTimeout(() => void agent.cancel(sessionId), 300);
      }
    });
    const { stopReason } = await agent.prompt(sessionId, '/run-bg echo $$ > late.pid; exec sleep 30\n/run sleep 30');
    assert.equal(stopReason, 'cancelled');
    const late = await pidFrom(path.join(ws, 'late.pid'));
    const early = await pidFrom(path.join(ws, 'early.pid'));
    assert.ok(await eventually(() => !isAlive(late)), 'the cancelled turn left its task running');
    assert.ok(isAlive(early), 'an earlier turn lost its task');
    await agent.prompt(sessionId, '/task-kill bg-1');
    assert.ok(await eventually(() => !isAlive(early)));
  });

  it('answers cancelled while a permission request is pending', async () => {
    await agent.stop();
    agent = await AgentUnderTest.start({
      stateDir: tempDir('state'),
      terminalOutput: true,
      // As a client does: the user cancels the turn, then the pending question is answered `cancelled`.
      permission: () =>
        new Promise((resolve) => {
          setTimeout(() => void agent.cancel(sessionId).then(() => resolve('cancelled')), 100);
        }),
    });
    sessionId = (await agent.newSession(ws)).sessionId;
    const { stopReason, updates } = await agent.prompt(sessionId, '/write never.txt\n```\nno\n```\n/read README.md');
    assert.equal(stopReason, 'cancelled');
    const cards = fold(updates).cards;
    assert.equal(cards.length, 1);
    assert.equal(cards[0]?.status, 'failed');
    assert.equal(cardText(cards[0]!), 'Cancelled before it ran.');
    assert.equal(existsSync(path.join(ws, 'never.txt')), false);
  });
});
