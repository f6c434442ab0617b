import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { closeAllEditors, inWorkspace, lastCall, setSetting, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

type Block = { type: string; text?: string; uri?: string; name?: string };

/** The blocks the test agent says reached it (its `echo-blocks` scenario). */
async function echoedBlocks(api: AcpNativeApi): Promise<Block[]> {
  const stop = await within('the echo turn', Promise.resolve(vscode.commands.executeCommand<string>('acpNative.prompt', 'echo-blocks')));
  assert.equal(stop, 'end_turn');
  const output = lastCall(api).rawOutput as { ok: boolean; result: Block[] };
  assert.equal(output.ok, true);
  return output.result;
}

const traceLines = async () => (await vscode.commands.executeCommand<string[]>('acpNative.showTrace')) ?? [];

describe('chat: send to the agent, elicitation and the protocol trace', function () {
  let api: AcpNativeApi;

  agentSuite({ settings: { 'acpNative.trace': 'verbose' } }, (started) => (api = started));

  after(closeAllEditors);

  it('traces each JSON-RPC message with its method, id and size, and at verbose the body (the client advertises elicitation)', async () => {
    const lines = await traceLines();
    const initialize = lines.find((l) => l.includes('→ request #') && l.includes(' initialize ('));
    assert.ok(initialize, `no initialize request in the trace:\n${lines.slice(0, 5).join('\n')}`);
    assert.match(initialize, /\[third-party\] → request #\d+ initialize \(\d+(\.\d)? (B|KB)\)/);
    assert.match(initialize, /"elicitation": \{\s*"form": \{\},\s*"url": \{\}\s*\}/);
    assert.ok(lines.some((l) => /← response #\d+ initialize/.test(l)), 'the response names its request');
    assert.ok(lines.some((l) => l.includes('→ request #') && l.includes('session/new')));
  });

  it('asks natively while the chat is hidden, and a cancelled turn answers the open form "cancel"', async () => {
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    const before = (await traceLines()).length;
    const turn = Promise.resolve(vscode.commands.executeCommand<string>('acpNative.prompt', 'ask-form'));
    await waitFor('the elicitation request in the trace', async () =>
      (await traceLines()).slice(before).find((l) => /← request #\d+ elicitation\/create/.test(l) && l.includes('"requestedSchema"')),
    );
    await api.cancel();
    await within('the cancelled turn', turn);
    const output = lastCall(api).rawOutput as { ok: boolean; result: { action: string } };
    assert.deepEqual(output, { ok: true, result: { action: 'cancel' } });
    assert.ok((await traceLines()).slice(before).some((l) => /→ response #\d+ elicitation\/create/.test(l)));
  });

  it('sends the editor selection and explorer files and folders as attachments of the next prompt', async () => {
    const greet = vscode.Uri.file(inWorkspace('src/greet.ts'));
    const editor = await vscode.window.showTextDocument(greet);
    editor.selection = new vscode.Selection(0, 0, 0, editor.document.lineAt(0).text.length);
    await vscode.commands.executeCommand('acpNative.sendToChat', greet);
    const src = vscode.Uri.file(inWorkspace('src'));
    const readme = vscode.Uri.file(inWorkspace('README.md'));
    await vscode.commands.executeCommand('acpNative.sendResourcesToChat', src, [src, readme]);
    const blocks = await echoedBlocks(api);
    assert.equal(blocks[0]?.text, 'echo-blocks');
    assert.match(blocks[1]?.text ?? '', /src\/greet\.ts:1-1/, 'the selection, fenced (the agent takes no embedded context)');
    assert.deepEqual(blocks.slice(2).map((b) => [b.type, b.name]), [['resource_link', 'src/'], ['resource_link', 'README.md']]);
    assert.equal(blocks[2]?.uri, src.toString());
    const again = await echoedBlocks(api);
    assert.equal(again.length, 1, 'attachments go with one prompt only');
  });

  it('sends the terminal selection', async () => {
    const written = new vscode.EventEmitter<string>();
    const opened = new Promise<void>((resolve) => {
      const terminal = vscode.window.createTerminal({
        name: 'acp-selection',
        pty: { onDidWrite: written.event, open: () => resolve(), close: () => undefined },
      });
      terminal.show();
    });
    await within('the terminal opens', opened);
    written.fire('hello from the terminal\r\n');
    await vscode.commands.executeCommand('workbench.action.terminal.focus');
    await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
    await vscode.commands.executeCommand('acpNative.sendTerminalSelectionToChat');
    const blocks = await echoedBlocks(api);
    assert.match(blocks[1]?.text ?? '', /Terminal: acp-selection:\n```\n[\s\S]*hello from the terminal/);
    written.dispose();
  });

  it('writes nothing to the trace when it is off', async () => {
    await setSetting('acpNative.trace', 'off');
    const before = (await traceLines()).length;
    await echoedBlocks(api);
    assert.equal((await traceLines()).length, before);
  });
});
