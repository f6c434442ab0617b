/**
 * Sessions across agent processes: list, resume, load after more turns, a torn log, and errors.
 */
import * as assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { AgentUnderTest } from './harness/agentProcess';
import { comparable, fold } from './harness/cards';
import { eventually, isAlive, pidFrom } from './harness/liveness';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

describe('sessions', function () {
  this.timeout(20_000);
  const agents: AgentUnderTest[] = [];
  const start = async (stateDir: string): Promise<AgentUnderTest> => {
    const agent = await AgentUnderTest.start({ stateDir, terminalOutput: true, args: ['--mode', 'bypass'] });
    agents.push(agent);
    return agent;
  };

  after(async () => {
    for (const agent of agents) {
      assert.deepEqual(agent.validator.errors, []);
      await agent.stop();
    }
    removeTempDirs();
  });

  it('lists sessions, newest first, by folder, titled by their first prompt', async () => {
    const stateDir = tempDir('state');
    const [a, b] = [tempWorkspace(), tempWorkspace()];
    const agent = await start(stateDir);
    const first = (await agent.newSession(a)).sessionId;
    await agent.prompt(first, '/read README.md');
    const second = (await agent.newSession(a)).sessionId;
    await new Promise((r) => setTimeout(r, 20));
    await agent.prompt(second, '/read package.json');
    const other = (await agent.newSession(b)).sessionId;
    await agent.prompt(other, '/help');

    const inA = await agent.agent.request(acp.methods.agent.session.list, { cwd: a });
    assert.deepEqual(
      inA.sessions.map((s) => [s.sessionId, s.cwd, s.title]),
      [
        [second, a, '/read package.json'],
        [first, a, '/read README.md'],
      ],
    );
    const all = await agent.agent.request(acp.methods.agent.session.list, {});
    assert.equal(all.sessions.length, 3);
  });

  it('resumes a session in a new process, and a later load replays every turn', async () => {
    const stateDir = tempDir('state');
    const ws = tempWorkspace();
    const one = await start(stateDir);
    const sessionId = (await one.newSession(ws)).sessionId;
    const turn1 = await one.prompt(sessionId, '/run echo first');
    await one.stop();

    const two = await start(stateDir);
    const resumed = await two.agent.request(acp.methods.agent.session.resume, { sessionId, cwd: ws });
    assert.equal(resumed.modes?.currentModeId, 'bypass');
    assert.equal(two.updates.get(sessionId), undefined, 'resume must not replay');
    const turn2 = await two.prompt(sessionId, '/run echo second');
    assert.equal(fold(turn2.updates).cards[0]?.terminal?.output, 'second\n');
    await two.stop();

    const three = await start(stateDir);
    const { updates } = await three.load(sessionId, ws);
    const live = fold([...turn1.updates, ...turn2.updates]);
    assert.deepEqual(fold(updates).cards.map(comparable), live.cards.map(comparable));
    assert.equal(fold(updates).userText, '/run echo first/run echo second');
  });

  it('reloads a session in the same process without stopping its background tasks', async () => {
    const ws = tempWorkspace();
    const agent = await start(tempDir('state'));
    const sessionId = (await agent.newSession(ws)).sessionId;
    const turn = await agent.prompt(sessionId, '/run-bg echo $$ > keep.pid; exec sleep 30\n/read README.md');
    const pid = await pidFrom(path.join(ws, 'keep.pid'));
    const { updates } = await agent.load(sessionId, ws);
    assert.deepEqual(fold(updates).cards.map(comparable), fold(turn.updates).cards.map(comparable));
    assert.ok(isAlive(pid), 'reloading killed a background task');
    await agent.prompt(sessionId, '/task-kill bg-1');
    assert.ok(await eventually(() => !isAlive(pid)));
  });

  it('skips a torn last line with a warning, losing nothing before it', async () => {
    const stateDir = tempDir('state');
    const ws = tempWorkspace();
    const one = await start(stateDir);
    const sessionId = (await one.newSession(ws)).sessionId;
    const turn = await one.prompt(sessionId, `/edit src/greet.ts\n\`\`\`\nHello\n\`\`\`\n\`\`\`\nHi\n\`\`\``);
    await one.stop();
    const file = path.join(stateDir, 'sessions', `${sessionId}.jsonl`);
    appendFileSync(file, '{"type":"agent_message","te');

    const two = await start(stateDir);
    const { updates } = await two.load(sessionId, ws);
    assert.deepEqual(fold(updates).cards.map(comparable), fold(turn.updates).cards.map(comparable));
    // stderr is read asynchronously: the warning may land just after the load's answer.
    assert.ok(await eventually(() => /skipped a torn or corrupt last line/.test(two.stderr)), two.stderr);
    // The torn tail is cut before appending, so the log stays readable.
    await two.prompt(sessionId, '/read src/greet.ts');
    assert.ok(readFileSync(file, 'utf8').split('\n').slice(0, -1).every((line) => JSON.parse(line) !== undefined));
  });

  it('answers resource-not-found for an unknown session, and for one that was closed', async () => {
    const stateDir = tempDir('state');
    const agent = await start(stateDir);
    await assert.rejects(agent.load('no-such-session', tempWorkspace()), (e: acp.RequestError) => e.code === -32002);
    await assert.rejects(agent.load('../../etc/passwd', tempWorkspace()), (e: acp.RequestError) => e.code === -32002);
    const sessionId = (await agent.newSession(tempWorkspace())).sessionId;
    await agent.agent.request(acp.methods.agent.session.close, { sessionId });
    await assert.rejects(agent.prompt(sessionId, '/help'), (e: acp.RequestError) => e.code === -32002);
  });
});
