import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { closeAllEditors, fence, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

describe('export a session as Markdown', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: 'bundled' }, (started) => (api = started));

  beforeEach(closeAllEditors);

  it("exports the user's prompts, each tool call as a heading with its status, its diff and its command output", async () => {
    await within('the /write turn', api.prompt(`/write notes/export-me.md\n${fence('# Export me\n\nfirst line')}`));
    await within('the /run turn', api.prompt('/run echo exported output line'));
    // A panel's text is what VS Code was given: wait for the output to reach it.
    await waitFor('the output in its panel', () => api.toolCalls().at(-1)?.terminal?.output.includes('exported output line'));
    const md = await api.exportSession();
    assert.match(md, /^# /);
    assert.match(md, /## User\n\n\/write notes\/export-me\.md/);
    assert.match(md, /## User\n\n\/run echo exported output line/);
    assert.match(md, /### Tool call: .*export-me\.md.* \(completed\)/);
    assert.match(md, /```diff\n--- .*export-me\.md\n\+\+\+ .*export-me\.md\n@@ -0,0 \+1,3 @@\n\+# Export me\n\+\n\+first line\n```/);
    assert.match(md, /### Tool call: .*echo exported output line.* \((completed|failed)\)/);
    assert.match(md, /```text\n(.*\n)*exported output line\n/);

    await vscode.commands.executeCommand('acpNative.exportSession');
    const editor = await waitFor('an untitled Markdown editor', () => {
      const e = vscode.window.activeTextEditor;
      return e?.document.isUntitled && e.document.languageId === 'markdown' ? e : undefined;
    });
    assert.equal(editor.document.getText(), md);
  });
});
