/**
 * The scripted agent end to end, over real stdio: one prompt runs every command, with and without
 * display terminals; the cards are checked as a client would show them; then a fresh agent
 * process reloads the session and must replay the very same cards (from the log alone: the
 * workspace is gone by then). Every message both ways is validated against the ACP schema.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, renameSync } from 'node:fs';
import * as path from 'node:path';
import { AgentUnderTest } from './harness/agentProcess';
import { cardText, comparable, diffs, fold, type Card, type Transcript } from './harness/cards';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

const LONG_FILE = Array.from({ length: 30 }, (_, i) => (i % 10 === 4 ? `// TODO ${i + 1}` : `const line${i + 1} = ${i + 1};`)).join('\n');

const SCRIPT = [
  '/read README.md',
  '/read src/greet.ts 2 2',
  '/write notes/todo.txt',
  '```',
  'first line',
  'second line',
  '```',
  '/edit src/math.js',
  '```',
  '  return a + b;',
  '```',
  '```',
  '  return a - b;',
  '```',
  '/write src/long.js',
  '```',
  LONG_FILE,
  '```',
  '/edit src/long.js --all',
  '```',
  'TODO',
  '```',
  '```',
  'DONE',
  '```',
  '/run for i in 1 2 3; do echo "tick $i"; sleep 0.3; done',
  '/run echo "going to fail"; exit 3',
  '/run-bg echo started; sleep 30',
  '/task-output bg-1 500',
  '/task-kill bg-1',
  '/todo',
  '- [x] read the project',
  '- [~] change things',
  '- [ ] run the tests',
].join('\n');

for (const terminalOutput of [true, false]) {
  describe(`scripted agent, ${terminalOutput ? 'with' : 'without'} display terminals`, function () {
    this.timeout(30_000);
    let ws: string;
    let stateDir: string;
    let agent: AgentUnderTest;
    let sessionId: string;
    let stopReason: string;
    let live: Transcript;
    let cards: Card[];
    const arrivals: { at: number; kind: 'output' | 'exit' }[] = [];

    before(async () => {
      ws = tempWorkspace();
      stateDir = tempDir('state');
      agent = await AgentUnderTest.start({ stateDir, terminalOutput });
      sessionId = (await agent.newSession(ws)).sessionId;
      agent.onUpdate.push((_id, update) => {
        if (update.sessionUpdate !== 'tool_call_update' || !update._meta) return;
        if ('terminal_output' in update._meta) arrivals.push({ at: Date.now(), kind: 'output' });
        if ('terminal_exit' in update._meta) arrivals.push({ at: Date.now(), kind: 'exit' });
      });
      const result = await agent.prompt(sessionId, SCRIPT);
      stopReason = result.stopReason;
      live = fold(result.updates);
      cards = live.cards;
    });

    after(async () => {
      await agent.stop();
      removeTempDirs();
    });

    it('runs every command and ends the turn normally', () => {
      assert.equal(stopReason, 'end_turn');
      assert.deepEqual(
        cards.map((c) => c.title),
        [
          'Read README.md',
          'Read src/greet.ts (lines 2–3)',
          'Write notes/todo.txt',
          'Edit src/math.js',
          'Write src/long.js',
          'Edit src/long.js (all occurrences)',
          'for i in 1 2 3; do echo "tick $i"; sleep 0.3; done',
          'echo "going to fail"; exit 3',
          'Run in background: echo started; sleep 30',
          'Output of bg-1',
          'Stop bg-1',
          'Update todo list',
        ],
      );
    });

    it('shows reads as read cards with a follow-along location', () => {
      const [readme, greet] = cards;
      assert.equal(readme?.kind, 'read');
      assert.equal(readme?.status, 'completed');
      assert.deepEqual(readme?.locations, [{ path: path.join(ws, 'README.md'), line: 1 }]);
      assert.match(cardText(readme!), /^```\n1\t# Demo workspace/);
      assert.deepEqual(greet?.locations, [{ path: path.join(ws, 'src/greet.ts'), line: 2 }]);
      assert.equal(cardText(greet!), '```\n2\t  return `Hello, ${name}!`;\n3\t}\n```\n… 4 more lines (read on with line=4)');
    });

    it('shows a write as a new-file diff, and writes the file', () => {
      const write = cards[2]!;
      assert.equal(write.kind, 'edit');
      assert.equal(write.status, 'completed');
      const file = path.join(ws, 'notes/todo.txt');
      assert.deepEqual(diffs(write), [{ type: 'diff', path: file, oldText: null, newText: 'first line\nsecond line\n' }]);
      assert.equal(readFileSync(file, 'utf8'), 'first line\nsecond line\n');
    });

    it('asks with the call-time snippet, then completes an edit with the applied hunk (±3 lines)', () => {
      const file = path.join(ws, 'src/math.js');
      const asked = agent.permissionRequests.find((r) => r.toolCall.title === 'Edit src/math.js');
      assert.deepEqual(asked?.toolCall.content, [{ type: 'diff', path: file, oldText: '  return a + b;', newText: '  return a - b;' }]);
      const edit = cards[3]!;
      assert.deepEqual(diffs(edit), [
        {
          type: 'diff',
          path: file,
          oldText: 'function add(a, b) {\n  return a + b;\n}\n\nfunction multiply(a, b) {',
          newText: 'function add(a, b) {\n  return a - b;\n}\n\nfunction multiply(a, b) {',
        },
      ]);
      assert.deepEqual(edit.locations, [{ path: file, line: 1 }]);
      assert.match(readFileSync(file, 'utf8'), /return a - b;/);
    });

    it('gives a replace_all edit one hunk and one location per site', () => {
      const edit = cards[5]!;
      const file = path.join(ws, 'src/long.js');
      assert.equal(diffs(edit).length, 3);
      assert.deepEqual(edit.locations, [2, 12, 22].map((line) => ({ path: file, line })));
      assert.equal(diffs(edit)[1]?.oldText, 'const line12 = 12;\nconst line13 = 13;\nconst line14 = 14;\n// TODO 15\nconst line16 = 16;\nconst line17 = 17;\nconst line18 = 18;');
      assert.equal(diffs(edit)[1]?.newText, 'const line12 = 12;\nconst line13 = 13;\nconst line14 = 14;\n// DONE 15\nconst line16 = 16;\nconst line17 = 17;\nconst line18 = 18;');
    });

    if (terminalOutput) {
      it('streams a command to a display terminal as it prints, then reports the exit', () => {
        const run = cards[6]!;
        assert.equal(run.kind, 'execute');
        assert.equal(run.status, 'completed');
        assert.deepEqual(run.content, [{ type: 'terminal', terminalId: run.toolCallId }]);
        assert.equal(run.terminal?.cwd, ws);
        assert.equal(run.terminal?.output, 'tick 1\ntick 2\ntick 3\n');
        assert.ok((run.terminal?.chunks ?? 0) >= 2, `output came in ${run.terminal?.chunks} chunk(s)`);
        assert.deepEqual(run.terminal?.exit, { exit_code: 0, signal: null });
        // The first chunk arrived well before the exit: streamed live, not sent at the end.
        const firstOutput = arrivals.find((a) => a.kind === 'output')!;
        const firstExit = arrivals.find((a) => a.kind === 'exit')!;
        assert.ok(firstExit.at - firstOutput.at >= 300, `first output ${firstExit.at - firstOutput.at} ms before exit`);
      });

      it('fails a command that exits non-zero, with its exit code', () => {
        const fail = cards[7]!;
        assert.equal(fail.status, 'failed');
        assert.equal(fail.terminal?.output, 'going to fail\n');
        assert.deepEqual(fail.terminal?.exit, { exit_code: 3, signal: null });
      });
    } else {
      it('sends command output as a fenced console block', () => {
        const run = cards[6]!;
        assert.equal(run.status, 'completed');
        assert.equal(run.terminal, undefined);
        assert.equal(cardText(run), '```console\ntick 1\ntick 2\ntick 3\n```');
      });

      it('fails a command that exits non-zero, saying its exit code', () => {
        const fail = cards[7]!;
        assert.equal(fail.status, 'failed');
        assert.equal(cardText(fail), '```console\ngoing to fail\n```\nExit code 3');
      });
    }

    it('runs a background task with generic output and stop cards', () => {
      const [start, output, kill] = [cards[8]!, cards[9]!, cards[10]!];
      assert.equal(start.kind, 'execute');
      assert.match(cardText(start), /^Started bg-1 \(pid \d+\) in the background/);
      assert.match(cardText(output), /^bg-1 is running: echo started; sleep 30\n```console\nstarted\n```$/);
      assert.match(cardText(kill), /^bg-1 was stopped by SIGTERM/);
    });

    it('shows the todo list as a card and as the plan', () => {
      const todo = cards[11]!;
      assert.equal(todo.kind, 'think');
      assert.equal(cardText(todo), '- [x] read the project\n- [ ] change things (in progress)\n- [ ] run the tests');
      assert.deepEqual(live.plan, [
        { content: 'read the project', priority: 'medium', status: 'completed' },
        { content: 'change things', priority: 'medium', status: 'in_progress' },
        { content: 'run the tests', priority: 'medium', status: 'pending' },
      ]);
    });

    it('asked permission for every write, edit and command, offering all four kinds', () => {
      assert.equal(agent.permissionRequests.length, 7);
      for (const request of agent.permissionRequests) {
        assert.deepEqual(request.options.map((o) => o.kind), ['allow_once', 'allow_always', 'reject_once', 'reject_always']);
      }
    });

    it('replays the session in a new agent process with the same cards, from the log alone', async () => {
      // Gone: a replay that touched the files could not produce the same cards.
      renameSync(ws, `${ws}-gone`);
      const second = await AgentUnderTest.start({ stateDir, terminalOutput });
      try {
        const { response, updates } = await second.load(sessionId, ws);
        assert.equal(response.modes?.currentModeId, 'ask');
        const replay = fold(updates);
        assert.deepEqual(replay.cards.map(comparable), live.cards.map(comparable));
        assert.equal(replay.userText, SCRIPT);
        assert.equal(replay.agentText, live.agentText);
        assert.deepEqual(replay.plan, live.plan);
        assert.equal(second.permissionRequests.length, 0);
        assert.deepEqual(second.validator.errors, []);
      } finally {
        await second.stop();
        renameSync(`${ws}-gone`, ws);
      }
      assert.ok(existsSync(path.join(ws, 'README.md')));
    });

    it('exchanged only messages that match the ACP schema', () => {
      assert.ok(agent.validator.count > 40, `only ${agent.validator.count} messages`);
      assert.deepEqual(agent.validator.errors, []);
    });
  });
}
