/**
 * Each tool's render intents: which card a call and a result ask for, derived purely from the
 * arguments (+ outcome + persisted meta), so live and replay agree.
 */
import * as assert from 'node:assert/strict';
import { bashTool } from '../../../src/agent/tools/bash';
import { editTool } from '../../../src/agent/tools/edit';
import { readTool } from '../../../src/agent/tools/read';
import { taskKillTool } from '../../../src/agent/tools/taskKill';
import { taskOutputTool } from '../../../src/agent/tools/taskOutput';
import { todoTool } from '../../../src/agent/tools/todo';
import { writeTool } from '../../../src/agent/tools/write';

const ok = (text: string) => ({ isError: false, text });
const failed = (text: string) => ({ isError: true, text });

describe('tool views', () => {
  describe('presentCall', () => {
    it('read: a generic read card with a follow-along location', () => {
      assert.deepEqual(readTool.presentCall({ path: '/p/a.ts', line: 5, limit: 3 }), {
        card: 'generic',
        title: 'Read /p/a.ts (lines 5–7)',
        kind: 'read',
        rawInput: { path: '/p/a.ts', line: 5, limit: 3 },
        locations: [{ path: '/p/a.ts', line: 5 }],
      });
      const whole = readTool.presentCall({ path: '/p/a.ts' });
      assert.ok(whole.card === 'generic');
      assert.deepEqual(whole.locations, [{ path: '/p/a.ts', line: 1 }]);
    });

    it('write: a diff card, new-file style with the whole content (even over an existing file)', () => {
      assert.deepEqual(writeTool.presentCall({ path: '/p/a.ts', content: 'x\n' }), {
        card: 'diff',
        title: 'Write /p/a.ts',
        diffs: [{ path: '/p/a.ts', oldText: null, newText: 'x\n' }],
        locations: [{ path: '/p/a.ts' }],
      });
    });

    it('edit: a diff card of the bare snippet; an empty old_string is a create', () => {
      const snippet = editTool.presentCall({ path: '/p/a.ts', old_string: 'a', new_string: 'b' });
      assert.ok(snippet.card === 'diff');
      assert.deepEqual(snippet.diffs, [{ path: '/p/a.ts', oldText: 'a', newText: 'b' }]);
      const create = editTool.presentCall({ path: '/p/a.ts', old_string: '', new_string: 'b' });
      assert.ok(create.card === 'diff');
      assert.deepEqual(create.diffs, [{ path: '/p/a.ts', oldText: null, newText: 'b' }]);
    });

    it('bash: a terminal card in the foreground, a generic card in the background', () => {
      assert.deepEqual(bashTool.presentCall({ command: 'ls', description: 'List', cwd: '/p' }), {
        card: 'terminal',
        title: 'ls',
        description: 'List',
        cwd: '/p',
      });
      const background = bashTool.presentCall({ command: 'serve', run_in_background: true });
      assert.equal(background.card, 'generic');
      assert.equal(background.title, 'Run in background: serve');
    });

    it('task controls and todo: generic cards', () => {
      assert.equal(taskOutputTool.presentCall({ task_id: 'bg-1' }).card, 'generic');
      assert.equal(taskKillTool.presentCall({ task_id: 'bg-1' }).card, 'generic');
      const todo = todoTool.presentCall({ todos: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }] });
      assert.equal(todo.card, 'generic');
      assert.deepEqual(todo.card === 'generic' ? todo.content : undefined, [{ type: 'text', text: '- [x] a\n- [ ] b (in progress)' }]);
    });
  });

  describe('presentResult', () => {
    const args = { path: '/p/a.ts', content: 'new\n' };

    it('a mutation completes with the applied hunks read back from meta', () => {
      const meta = { diffs: [{ path: '/p/a.ts', oldText: 'a\nold', newText: 'a\nnew' }], locations: [{ path: '/p/a.ts', line: 4 }] };
      assert.deepEqual(writeTool.presentResult(args, ok('Wrote'), meta), {
        card: 'diff',
        diffs: meta.diffs,
        locations: meta.locations,
      });
    });

    it('a whole-file result takes its new text from the arguments when the meta leaves it out', () => {
      const view = writeTool.presentResult(args, ok('Created'), { wholeFile: { oldText: null } });
      assert.deepEqual(view, { card: 'diff', diffs: [{ path: '/p/a.ts', oldText: null, newText: 'new\n' }], locations: [{ path: '/p/a.ts', line: 1 }] });
    });

    it('a failed mutation carries no diff and renders its error', () => {
      assert.deepEqual(editTool.presentResult({ path: '/p/a.ts', old_string: 'a', new_string: 'b' }, failed('old_string was not found'), undefined), {
        card: 'generic',
        content: [{ type: 'text', text: 'old_string was not found' }],
      });
    });

    it('bash: the terminal result comes from meta; without meta (never ran) it shows why', () => {
      assert.deepEqual(bashTool.presentResult({ command: 'x' }, failed('...'), { output: 'boom\n', exitCode: 2 }), {
        card: 'terminal',
        output: 'boom\n',
        exitCode: 2,
      });
      assert.deepEqual(bashTool.presentResult({ command: 'x' }, failed('Rejected by the user.'), undefined), {
        card: 'terminal',
        output: 'Rejected by the user.\n',
      });
    });

    it('read: the lines in a fence, with the "more lines" note below it', () => {
      assert.deepEqual(readTool.presentResult({ path: '/p/a' }, ok('1\ta\n… 9 more lines (read on with line=2)'), undefined), {
        card: 'generic',
        content: [{ type: 'text', text: '```\n1\ta\n```\n… 9 more lines (read on with line=2)' }],
      });
    });

    it('is pure: the same inputs give the same view', () => {
      const meta = { output: 'x', exitCode: 0 };
      assert.deepEqual(bashTool.presentResult({ command: 'x' }, ok('x'), meta), bashTool.presentResult({ command: 'x' }, ok('x'), meta));
    });
  });
});
