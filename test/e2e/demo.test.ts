/** `/demo` on the sample workspace, help, and how the agent process ends. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AgentUnderTest } from './harness/agentProcess';
import { cardText, diffs, fold } from './harness/cards';
import { eventually, isAlive, pidFrom } from './harness/liveness';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

describe('/demo, help and process lifetime', function () {
  this.timeout(30_000);
  let agent: AgentUnderTest;
  let ws: string;
  let sessionId: string;

  before(async () => {
    ws = tempWorkspace();
    agent = await AgentUnderTest.start({ stateDir: tempDir('state'), terminalOutput: true });
    sessionId = (await agent.newSession(ws)).sessionId;
  });
  after(async () => {
    assert.deepEqual(agent.validator.errors, []);
    assert.equal(await agent.stop(), 0, 'the agent did not exit cleanly when its stdin closed');
    removeTempDirs();
  });

  it('tours every card kind on the sample workspace', async () => {
    const original = readFileSync(path.join(ws, 'src/greet.ts'), 'utf8');
    const { stopReason, updates } = await agent.prompt(sessionId, '/demo');
    assert.equal(stopReason, 'end_turn');
    const { cards, plan, agentText } = fold(updates);
    assert.ok(cards.every((c) => c.status === (c.title?.startsWith('echo "checking') ? 'failed' : 'completed')), 'a card did not end as expected');

    assert.ok(cards.some((c) => c.kind === 'read' && c.title === 'Read README.md'));
    const greet = cards.find((c) => c.title === 'Edit src/greet.ts')!;
    assert.match(diffs(greet)[0]?.newText ?? '', /^export function greet\(name: string\): string \{\n {2}return `Hello, \$\{name\}! Welcome to ACP Native.`;/);
    assert.equal(cards.find((c) => c.title === 'Write src/tour.js')?.content[0]?.type, 'diff');
    assert.equal(diffs(cards.find((c) => c.title === 'Edit src/tour.js (all occurrences)')!).length, 3);
    const slow = cards.find((c) => c.title?.includes('step $i of 3'))!;
    assert.equal(slow.terminal?.output, 'step 1 of 3\nstep 2 of 3\nstep 3 of 3\n');
    assert.ok((slow.terminal?.chunks ?? 0) >= 2);
    assert.deepEqual(cards.find((c) => c.title?.startsWith('echo "checking'))?.terminal?.exit, { exit_code: 3, signal: null });
    assert.match(cardText(cards.find((c) => c.title === 'Output of bg-1')!), /tick \d\d:\d\d:\d\d/);
    assert.match(cardText(cards.find((c) => c.title === 'Stop bg-1')!), /stopped by SIGTERM/);
    assert.ok(plan?.every((entry) => entry.status === 'completed'));
    assert.match(agentText, /every card kind/);

    // Again: the greeting edit toggles back, the multi-site file is rewritten first.
    const again = fold((await agent.prompt(sessionId, '/demo')).updates);
    assert.equal(readFileSync(path.join(ws, 'src/greet.ts'), 'utf8'), original);
    assert.equal(diffs(again.cards.find((c) => c.title === 'Edit src/tour.js (all occurrences)')!).length, 3);
    assert.ok(again.cards.some((c) => c.title === 'Stop bg-2'));
  });

  it('answers plain text and /help with the command list', async () => {
    for (const prompt of ['hello there', '/help']) {
      const { stopReason, updates } = await agent.prompt(sessionId, prompt);
      assert.equal(stopReason, 'end_turn');
      const text = fold(updates).agentText;
      assert.match(text, /scripted agent/);
      for (const command of ['/read', '/write', '/edit', '/run ', '/run-bg', '/task-output', '/task-kill', '/todo', '/demo']) assert.ok(text.includes(command), command);
    }
  });

  it('advertises its commands to the client', () => {
    const announced = agent.updates.get(sessionId)?.find((u) => u.sessionUpdate === 'available_commands_update');
    assert.ok(announced?.sessionUpdate === 'available_commands_update');
    assert.ok(announced.availableCommands.some((c) => c.name === 'demo'));
  });

  it('stops background tasks when the client goes away', async () => {
    await agent.prompt(sessionId, '/run-bg echo $$ > survivor.pid; exec sleep 30');
    const pid = await pidFrom(path.join(ws, 'survivor.pid'));
    assert.ok(isAlive(pid));
    assert.equal(await agent.stop(), 0);
    assert.ok(await eventually(() => !isAlive(pid)), 'the background task outlived the agent');
  });
});
