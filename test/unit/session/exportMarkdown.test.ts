import * as assert from 'node:assert/strict';
import { exportMarkdown, fenced } from '../../../src/extension/session/model/exportMarkdown';
import type { ToolCallState } from '../../../src/extension/session/model/toolCalls';
import { Transcript } from '../../../src/extension/session/model/transcript';

function call(fields: Partial<ToolCallState> & { id: string }): ToolCallState {
  return { title: '', name: undefined, kind: undefined, status: 'completed', content: [], locations: [], terminalId: undefined, order: 0, revision: 0, contentRevision: 0, ...fields };
}

describe('export a session as Markdown', () => {
  function exported(calls: ToolCallState[], terminals: Record<string, string> = {}): string {
    const transcript = new Transcript();
    transcript.startMessage('user', [{ type: 'text', text: 'Fix the greeting' }]);
    transcript.appendChunk('thought', { type: 'text', text: 'secret scratch' });
    transcript.appendChunk('agent', { type: 'text', text: 'On it.' });
    for (const c of calls) transcript.addToolCall(c.id);
    transcript.appendChunk('agent', { type: 'text', text: 'Done.' });
    return exportMarkdown({
      sessionId: 's-1',
      title: 'Greeting fix',
      transcript: transcript.entries,
      toolCall: (id) => calls.find((c) => c.id === id),
      terminalOutput: (id) => terminals[id],
    });
  }

  it('puts the messages in order under who said them, without thoughts', () => {
    const md = exported([]);
    assert.match(md, /^# Greeting fix\n/);
    assert.match(md, /## User\n\nFix the greeting\n\n## Agent\n\nOn it\.Done\.\n$/);
    assert.doesNotMatch(md, /secret scratch/);
  });

  it('renders an edit as a heading with its status and a unified diff fence', () => {
    const md = exported([call({ id: 'c1', title: 'Edit hello.txt', status: 'failed', content: [{ type: 'diff', path: '/p/hello.txt', oldText: 'hello\nworld\n', newText: 'hello\nthere\n' }] })]);
    assert.match(md, /### Tool call: Edit hello\.txt \(failed\)\n\n```diff\n--- \/p\/hello\.txt\n\+\+\+ \/p\/hello\.txt\n@@ -1,2 \+1,2 @@\n hello\n-world\n\+there\n```/);
  });

  it("renders a new file's diff against nothing, and a terminal's output in a fence", () => {
    const md = exported(
      [
        call({ id: 'c1', title: 'Write new.txt', content: [{ type: 'diff', path: 'new.txt', newText: 'one\n' }] }),
        call({ id: 'c2', title: 'Run ls', status: 'in_progress', content: [{ type: 'terminal', terminalId: 't1' }], terminalId: 't1' }),
      ],
      { t1: '\x1b[2mcwd: /p\x1b[0m\r\na.txt\r\nb.txt\r\n\x1b]633;D\x07' },
    );
    assert.match(md, /@@ -0,0 \+1,1 @@\n\+one\n```/);
    assert.match(md, /### Tool call: Run ls \(in_progress\)\n\n```text\ncwd: \/p\na\.txt\nb\.txt\n```/);
    assert.equal(md.match(/a\.txt/g)?.length, 1, 'the terminal is shown once though named twice');
  });

  it('fences text output so backticks inside cannot close the fence', () => {
    const md = exported([call({ id: 'c1', title: 'Read', content: [{ type: 'content', content: { type: 'text', text: 'x ```` y' } }] })]);
    assert.match(md, /`````text\nx ```` y\n`````/);
    assert.equal(fenced('plain', 'diff'), '```diff\nplain\n```');
  });
});
