/**
 * The bundled agent at its edges: reading outside the session's folders asks first. (Client
 * messages over the size limit: oversized.test.ts.)
 */
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { AgentUnderTest, type PermissionPolicy } from './harness/agentProcess';
import { cardText, fold } from './harness/cards';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

describe('reading outside the session folders', function () {
  this.timeout(30_000);
  const agents: AgentUnderTest[] = [];
  const start = async (permission: PermissionPolicy, additionalDirectories: string[] = []) => {
    const agent = await AgentUnderTest.start({ stateDir: tempDir('state'), terminalOutput: false, permission });
    agents.push(agent);
    const ws = tempWorkspace();
    const { sessionId } = await agent.agent.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [], additionalDirectories });
    return { agent, ws, sessionId };
  };
  const outsideFile = (): string => {
    const file = path.join(tempDir('outside'), 'secret.txt');
    writeFileSync(file, 'outside text\n');
    return file;
  };

  after(async () => {
    for (const agent of agents) {
      assert.deepEqual(agent.validator.errors, []);
      await agent.stop();
    }
    removeTempDirs();
  });

  it('asks (kind read) before reading a file outside cwd; a rejection fails the call and reads nothing', async () => {
    const { agent, sessionId } = await start(() => 'reject_once');
    const file = outsideFile();
    const [inside, outside] = fold((await agent.prompt(sessionId, `/read README.md\n/read ${file}`)).updates).cards;
    assert.equal(inside?.status, 'completed', 'inside the session folder: no question');
    assert.equal(outside?.status, 'failed');
    assert.equal(cardText(outside!), 'Rejected by the user.');
    assert.equal(agent.permissionRequests.length, 1);
    assert.equal(agent.permissionRequests[0]?.toolCall.kind, 'read');
    assert.match(agent.permissionRequests[0]?.options.find((o) => o.kind === 'allow_always')?.name ?? '', /reads outside the session folders/);
  });

  it('reads after "allow always" without asking again, and never asks inside an additional directory', async () => {
    const extra = tempDir('extra');
    writeFileSync(path.join(extra, 'shared.txt'), 'shared\n');
    const { agent, sessionId } = await start(() => 'allow_always', [extra]);
    const cards = fold((await agent.prompt(sessionId, `/read ${path.join(extra, 'shared.txt')}\n/read ${outsideFile()}\n/read ${outsideFile()}`)).updates).cards;
    assert.deepEqual(cards.map((c) => c.status), ['completed', 'completed', 'completed']);
    assert.equal(agent.permissionRequests.length, 1, 'one question, for the first file outside');
  });

  it('does not ask in bypass mode', async () => {
    const { agent, sessionId } = await start(() => 'reject_once');
    await agent.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'bypass' });
    const [card] = fold((await agent.prompt(sessionId, `/read ${outsideFile()}`)).updates).cards;
    assert.equal(card?.status, 'completed');
    assert.equal(agent.permissionRequests.length, 0);
  });
});
