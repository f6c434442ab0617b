import * as assert from 'node:assert/strict';
import { actionOf, diffEditorTitle, isWholeFileContent } from '../../../../src/extension/cards/diff/model/editorTitles';

describe('diff editor titles', () => {
  it('names the file and what the agent did', () => {
    assert.equal(diffEditorTitle({ displayPath: 'src/a.ts', isNewFile: false, callTitle: 'Edit src/a.ts' }), 'src/a.ts (Edit)');
    assert.equal(diffEditorTitle({ displayPath: 'notes/n.md', isNewFile: true, callTitle: 'Write notes/n.md' }), 'notes/n.md (New File)');
    assert.equal(
      diffEditorTitle({ displayPath: 'src/a.ts', isNewFile: false, callTitle: 'Edit src/a.ts', hunk: { index: 1, count: 3 } }),
      'src/a.ts (Edit 2/3)',
    );
  });

  it('falls back to a neutral verb when the title does not start with one', () => {
    assert.equal(actionOf('src/a.ts: replace x', false), 'Agent Edit');
    assert.equal(actionOf('', false), 'Agent Edit');
  });


  it('treats CRLF and LF content as the same file content', () => {
    assert.equal(isWholeFileContent('a\nb\n', 'a\r\nb\r\n'), true);
    assert.equal(isWholeFileContent('a\nb', 'a\nb\n'), false);
  });
});
