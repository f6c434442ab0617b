import * as vscode from 'vscode';

/**
 * A file's text as the user sees it, LF-normalized: the open document (unsaved changes included),
 * else the file on disk; undefined when it cannot be read as UTF-8 text.
 */
export async function readCurrentText(fsPath: string): Promise<string | undefined> {
  const uri = vscode.Uri.file(fsPath);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === uri.fsPath);
  if (open) return open.getText().replace(/\r\n/g, '\n');
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/\r\n/g, '\n');
  } catch {
    return undefined;
  }
}
