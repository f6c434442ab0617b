/** The scripted command language: what each prompt line means. */
import * as assert from 'node:assert/strict';
import { actionFor, HELP_TEXT } from '../../../src/agent/brains/scripted/commands';
import { parseScript, splitArgs } from '../../../src/agent/brains/scripted/parse';

const actions = (text: string) => parseScript(text).map(actionFor);

describe('scripted command language', () => {
  it('gives fenced blocks to the command before them, and keeps their text exactly', () => {
    assert.deepEqual(actions('/edit src/a.ts --all\n```ts\n  old\n```\n~~~\nnew ``` still new\n~~~'), [
      { kind: 'tool', tool: 'edit', args: { path: 'src/a.ts', old_string: '  old', new_string: 'new ``` still new', replace_all: true } },
    ]);
  });

  it('ends a written file with a newline, as editors do', () => {
    assert.deepEqual(actions('/write "my notes.txt"\n```\na\nb\n```'), [{ kind: 'tool', tool: 'write', args: { path: 'my notes.txt', content: 'a\nb\n' } }]);
  });

  it('reads optional numbers, and rejects bad ones with the usage', () => {
    assert.deepEqual(actions('/read a.ts 10 5'), [{ kind: 'tool', tool: 'read', args: { path: 'a.ts', line: 10, limit: 5 } }]);
    const [bad] = actions('/read a.ts ten');
    assert.equal(bad?.kind, 'usage');
    assert.match(bad?.kind === 'usage' ? bad.message : '', /LINE must be a positive number\.\nUsage: \/read PATH \[LINE \[LIMIT\]\]/);
  });

  it('runs the rest of the line, or a fenced block, as a shell command', () => {
    assert.deepEqual(actions('/run echo "a  b" | wc -c\n/run-bg\n```\nnpm start\n```'), [
      { kind: 'tool', tool: 'bash', args: { command: 'echo "a  b" | wc -c' } },
      { kind: 'tool', tool: 'bash', args: { command: 'npm start', run_in_background: true } },
    ]);
  });

  it('turns checklist lines into a todo list', () => {
    assert.deepEqual(actions('/todo\n- [ ] one\n- [x] two\n* [~] three\nnot an item'), [
      {
        kind: 'tool',
        tool: 'todo',
        args: { todos: [{ content: 'one', status: 'pending' }, { content: 'two', status: 'completed' }, { content: 'three', status: 'in_progress' }] },
      },
    ]);
  });

  it('maps the task controls', () => {
    assert.deepEqual(actions('/task-output bg-2 300\n/task-kill bg-2'), [
      { kind: 'tool', tool: 'task_output', args: { task_id: 'bg-2', wait_ms: 300 } },
      { kind: 'tool', tool: 'task_kill', args: { task_id: 'bg-2' } },
    ]);
  });

  it('answers unknown commands and malformed ones with help, and plain text with no command at all', () => {
    assert.deepEqual(actions('/frobnicate'), [{ kind: 'usage', message: `Unknown command /frobnicate.\n\n${HELP_TEXT}` }]);
    assert.equal(actions('/write a.txt')[0]?.kind, 'usage');
    assert.deepEqual(parseScript('just some words\nand more'), []);
    assert.deepEqual(actions('/demo'), [{ kind: 'demo' }]);
  });

  it('splits arguments on spaces, keeping quoted ones whole', () => {
    assert.deepEqual(splitArgs(`a "b c" 'd e' f`), ['a', 'b c', 'd e', 'f']);
  });
});
