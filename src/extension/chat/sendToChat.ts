import * as vscode from 'vscode';
import type { ChatActions } from './chatActions';

/**
 * "Send to ACP Chat" from the editor, the explorer and the terminal: what was chosen becomes an
 * attachment of the next prompt, and the chat comes forward with the cursor in the prompt box.
 */
export class SendToChat {
  constructor(private readonly deps: { actions: ChatActions; panel: { focus(): Promise<void> } }) {}

  /** Editor context menu: the selection, else the whole file. */
  async editor(uri?: unknown): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (editor && (!(uri instanceof vscode.Uri) || editor.document.uri.toString() === uri.toString())) {
      if (editor.selection.isEmpty) await this.deps.actions.attachUri(editor.document.uri, false);
      else await this.deps.actions.attachSelection(editor);
    } else if (uri instanceof vscode.Uri) {
      await this.deps.actions.attachUri(uri, false);
    } else {
      void vscode.window.showInformationMessage('ACP: open a file or select text to send it to the agent.');
      return;
    }
    await this.deps.panel.focus();
  }

  /** Explorer context menu: the clicked resource, or all selected ones. */
  async explorer(clicked?: unknown, selected?: unknown): Promise<void> {
    const uris = (Array.isArray(selected) && selected.length ? selected : [clicked]).filter((u): u is vscode.Uri => u instanceof vscode.Uri);
    if (uris.length === 0) {
      void vscode.window.showInformationMessage('ACP: choose files or folders in the explorer to send them to the agent.');
      return;
    }
    for (const uri of uris) {
      const stat = await vscode.workspace.fs.stat(uri);
      await this.deps.actions.attachUri(uri, (stat.type & vscode.FileType.Directory) !== 0);
    }
    await this.deps.panel.focus();
  }

  /**
   * Terminal context menu: the selected text. VS Code 1.99 has no terminal-selection API, so the
   * selection is copied through the clipboard, which is put back afterwards.
   */
  async terminal(): Promise<void> {
    const terminal = vscode.window.activeTerminal;
    const saved = await vscode.env.clipboard.readText();
    const marker = `\u0000acp-native-${Date.now()}`;
    await vscode.env.clipboard.writeText(marker);
    let text = '';
    try {
      await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
      text = await vscode.env.clipboard.readText();
    } finally {
      await vscode.env.clipboard.writeText(saved);
    }
    if (!text || text === marker) {
      void vscode.window.showInformationMessage('ACP: select text in the terminal to send it to the agent.');
      return;
    }
    this.deps.actions.attachText(`Terminal: ${terminal?.name ?? 'selection'}`, text);
    await this.deps.panel.focus();
  }
}

