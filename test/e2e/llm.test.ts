/**
 * The LLM brain end to end, against a loopback server speaking the streaming chat-completions
 * format: reasoning and text stream as thought and message chunks, tool calls run through the same
 * cards, a reload replays it all, and a later turn sends the whole history back to the model.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AgentUnderTest } from './harness/agentProcess';
import { comparable, diffs, fold } from './harness/cards';
import { FakeModel, type ModelRequest } from './harness/fakeModel';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

const lastMessage = (r: ModelRequest) => r.body.messages[r.body.messages.length - 1];

describe('LLM brain', function () {
  this.timeout(20_000);
  let model: FakeModel;
  let baseURL: string;
  const agents: AgentUnderTest[] = [];
  const start = async (stateDir: string): Promise<AgentUnderTest> => {
    const agent = await AgentUnderTest.start({
      stateDir,
      terminalOutput: true,
      args: ['--brain', 'llm', '--base-url', baseURL, '--model', 'test-model', '--mode', 'accept-edits'],
      env: { ACP_NATIVE_LLM_API_KEY: 'test-key' },
    });
    agents.push(agent);
    return agent;
  };

  afterEach(async () => {
    for (const agent of agents.splice(0)) {
      assert.deepEqual(agent.validator.errors, []);
      await agent.stop();
    }
    await model.stop();
  });
  after(removeTempDirs);

  it('streams thoughts and text, runs tool calls in a loop, and replays and continues after a reload', async () => {
    model = new FakeModel((request, index) => {
      switch (index) {
        case 0:
          return {
            reasoning: ['The user wants ', 'a friendlier greeting.'],
            text: ['Let me read ', 'the file first.'],
            toolCalls: [{ name: 'read', arguments: JSON.stringify({ path: 'src/greet.ts' }) }],
            delayMs: 20,
          };
        case 1:
          assert.equal(lastMessage(request)?.role, 'tool');
          assert.match(String(lastMessage(request)?.content), /2\t {2}return `Hello, \$\{name\}!`;/);
          return {
            text: ['Now the edit.'],
            toolCalls: [
              { name: 'nope', arguments: '{}' },
              { name: 'edit', arguments: JSON.stringify({ path: 'src/greet.ts', old_string: 'Hello', new_string: 'Howdy' }) },
            ],
          };
        case 2:
          return { text: ['Done: ', 'it says Howdy now.'] };
        default:
          return { text: ['Still here.'] };
      }
    });
    baseURL = await model.start();
    const stateDir = tempDir('state');
    const ws = tempWorkspace();
    const agent = await start(stateDir);
    const sessionId = (await agent.newSession(ws)).sessionId;
    const { stopReason, updates } = await agent.prompt(sessionId, 'Make the greeting friendlier.');

    assert.equal(stopReason, 'end_turn');
    const live = fold(updates);
    assert.equal(live.thoughtText, 'The user wants a friendlier greeting.');
    assert.equal(live.agentText, 'Let me read the file first.Now the edit.Done: it says Howdy now.');
    assert.ok(updates.filter((u) => u.sessionUpdate === 'agent_thought_chunk').length >= 2, 'reasoning was not streamed');
    assert.ok(updates.filter((u) => u.sessionUpdate === 'agent_message_chunk').length >= 5, 'text was not streamed');
    assert.deepEqual(live.cards.map((c) => [c.title, c.status]), [
      ['Read src/greet.ts', 'completed'],
      ['Edit src/greet.ts', 'completed'],
    ]);
    assert.equal(diffs(live.cards[1]!)[0]?.newText, 'export function greet(name: string): string {\n  return `Howdy, ${name}!`;\n}\n\nexport function farewell(name: string): string {');
    assert.match(readFileSync(path.join(ws, 'src/greet.ts'), 'utf8'), /Howdy/);

    const [first] = model.requests;
    assert.equal(first?.headers.authorization, 'Bearer test-key');
    assert.equal(first?.body.model, 'test-model');
    assert.equal(first?.body.stream, true);
    assert.deepEqual(first?.body.tools?.map((t) => t.function.name), ['read', 'write', 'edit', 'bash', 'task_output', 'task_kill', 'todo']);
    const unknown = model.requests[2]?.body.messages.find((m) => m.role === 'tool' && String(m.content).includes('no tool named nope'));
    assert.ok(unknown, 'an unknown tool was not reported back to the model');

    // A new process reloads the session: same cards, same text; then the model gets the history.
    await agent.stop();
    const again = await start(stateDir);
    const replay = fold((await again.load(sessionId, ws)).updates);
    assert.deepEqual(replay.cards.map(comparable), live.cards.map(comparable));
    assert.equal(replay.agentText, live.agentText);
    assert.equal(replay.thoughtText, live.thoughtText);
    assert.equal(replay.userText, 'Make the greeting friendlier.');

    await again.prompt(sessionId, 'Thanks!');
    const history = model.requests[3]?.body.messages ?? [];
    assert.deepEqual(history.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'user']);
    assert.equal(history[2]?.content, 'Let me read the file first.');
    assert.equal(history[2]?.tool_calls?.[0]?.function.name, 'read');
    assert.equal(history[3]?.tool_call_id, history[2]?.tool_calls?.[0]?.id);
    assert.equal(history[6]?.content, 'Done: it says Howdy now.');
    assert.equal(history[7]?.content, 'Thanks!');
  });

  it('tells the user when the model request fails, and ends the turn', async () => {
    model = new FakeModel(() => ({ status: 401 }));
    baseURL = await model.start();
    const agent = await start(tempDir('state'));
    const sessionId = (await agent.newSession(tempWorkspace())).sessionId;
    const { stopReason, updates } = await agent.prompt(sessionId, 'hello');
    assert.equal(stopReason, 'end_turn');
    assert.match(fold(updates).agentText, /The model request failed: 401/);
  });

  it('stops streaming on cancel and answers cancelled', async () => {
    model = new FakeModel(() => ({ text: Array.from({ length: 50 }, (_, i) => `word${i} `), delayMs: 100 }));
    baseURL = await model.start();
    const agent = await start(tempDir('state'));
    const sessionId = (await agent.newSession(tempWorkspace())).sessionId;
    agent.onUpdate.push((_id, update) => {
      if (update.sessionUpdate === 'agent_message_chunk') void agent.cancel(sessionId);
    });
    const started = Date.now();
    const { stopReason, updates } = await agent.prompt(sessionId, 'talk a lot');
    assert.equal(stopReason, 'cancelled');
    assert.ok(Date.now() - started < 3000, 'cancel did not stop the stream');
    assert.ok(fold(updates).agentText.length < 'word0 '.length * 10);
  });
});
