import * as vscode from 'vscode';
import * as acp from '@agentclientprotocol/sdk';
import { KeyedSerialQueue } from '../core/serialQueue';
import { sliceLines } from '../core/paths';
import type { Logger } from '../log';
import { resolveInsideWorkspace } from './workspacePaths';

/**
 * `fs/read_text_file` and `fs/write_text_file`, through VS Code's documents so the agent sees
 * unsaved changes and its writes are undoable edits that keep the file's line endings.
 */
export class FileService {
  private readonly writes = new KeyedSerialQueue();

  constructor(private readonly log: Logger) {}

  async read(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const fsPath = await resolveInsideWorkspace(params.path, 'file');
    const text = await currentText(vscode.Uri.file(fsPath));
    if (params.line != null && params.line < 1) throw acp.RequestError.invalidParams({ line: params.line }, 'line is 1-based.');
    const lineCount = text.split('\n').length;
    if (params.line != null && params.line > lineCount) {
      throw acp.RequestError.invalidParams({ line: params.line }, `line ${params.line} is past the end of the file (${lineCount} lines).`);
    }
    return { content: sliceLines(text, params.line, params.limit) };
  }

  write(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
    return this.writes.run(params.path, async () => {
      const fsPath = await resolveInsideWorkspace(params.path, 'file');
      const uri = vscode.Uri.file(fsPath);
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      if (open?.isDirty) {
        throw acp.RequestError.invalidParams(
          { path: params.path },
          `${params.path} has unsaved changes in the editor; save or revert them before the agent writes it.`,
        );
      }
      if (!(await exists(uri))) {
        const create = new vscode.WorkspaceEdit();
        create.createFile(uri, { ignoreIfExists: true });
        if (!(await vscode.workspace.applyEdit(create))) throw acp.RequestError.internalError(undefined, `Could not create ${params.path}.`);
      }
      const doc = await vscode.workspace.openTextDocument(uri);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), params.content);
      if (!(await vscode.workspace.applyEdit(edit))) throw acp.RequestError.internalError(undefined, `The edit of ${params.path} was not applied.`);
      if (!(await doc.save())) throw acp.RequestError.internalError(undefined, `${params.path} could not be saved.`);
      this.log.info(`fs/write_text_file ${params.path} (${params.content.length} chars)`);
      return {};
    });
  }
}

/** The text the user sees: the open document (unsaved changes included), else the file. */
async function currentText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) return open.getText().replace(/\r\n/g, '\n');
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    throw acp.RequestError.resourceNotFound(uri.fsPath);
  }
  if (bytes.includes(0)) throw acp.RequestError.invalidParams({ path: uri.fsPath }, `${uri.fsPath} is a binary file.`);
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    return text.replace(/\r\n/g, '\n');
  } catch {
    throw acp.RequestError.invalidParams({ path: uri.fsPath }, `${uri.fsPath} is not UTF-8 text.`);
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
