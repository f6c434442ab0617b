import * as vscode from 'vscode';
import * as acp from '@agentclientprotocol/sdk';
import { KeyedSerialQueue } from '../core/serialQueue';
import { sliceLines } from '../core/paths';
import type { FileSnapshot } from '../core/review';
import type { Logger } from '../log';
import { fileDisplayPath } from '../render/titles';
import type { PermissionService } from './permissions';
import type { ReviewService } from './review';
import type { ScratchDocuments } from './scratchDocuments';
import type { WorkspaceGuard } from './workspacePaths';

/**
 * `fs/read_text_file` and `fs/write_text_file`, through VS Code's documents: the agent reads what
 * the user sees (unsaved changes included), and its writes are undoable edits that keep the file's
 * line endings and BOM, saved before the reply. Writes to one file are serialized. A write over
 * unsaved changes is asked first, and every write is recorded for review with what was there.
 */
export class FileService {
  private readonly writes = new KeyedSerialQueue();

  constructor(
    private readonly deps: {
      log: Logger;
      guard: WorkspaceGuard;
      permissions: PermissionService;
      review: ReviewService;
      scratch: ScratchDocuments;
    },
  ) {}

  async read(params: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse> {
    const fsPath = await this.deps.guard.check(params.path, 'read', params.sessionId);
    if (params.line != null && params.line < 1) throw acp.RequestError.invalidParams({ line: params.line }, 'line is 1-based.');
    if (params.limit != null && params.limit < 0) throw acp.RequestError.invalidParams({ limit: params.limit }, 'limit must not be negative.');
    const text = await currentText(vscode.Uri.file(fsPath));
    const lineCount = text.split('\n').length;
    if (params.line != null && params.line > lineCount) {
      throw acp.RequestError.invalidParams({ line: params.line }, `line ${params.line} is past the end of ${params.path} (${lineCount} lines).`);
    }
    return { content: sliceLines(text, params.line, params.limit) };
  }

  write(params: acp.WriteTextFileRequest): Promise<acp.WriteTextFileResponse> {
    return this.writes.run(params.path, async () => {
      const fsPath = await this.deps.guard.check(params.path, 'write', params.sessionId);
      const uri = vscode.Uri.file(fsPath);
      const open = openDocument(uri);
      if (open?.isDirty) await this.confirmOverwrite(params, open);
      await this.deps.review.recordWrite(params.sessionId, fsPath, () => snapshot(uri));
      if (!(await exists(uri))) {
        // A new file (and its folders) is created with its content: one undoable edit.
        const create = new vscode.WorkspaceEdit();
        create.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(params.content) });
        if (!(await vscode.workspace.applyEdit(create))) throw acp.RequestError.internalError(undefined, `Could not create ${params.path}.`);
      } else {
        const doc = await vscode.workspace.openTextDocument(uri);
        const edit = new vscode.WorkspaceEdit();
        // The document keeps its line endings and encoding (BOM included): inserted `\n` become
        // its EOL, and saving writes its encoding.
        edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), params.content);
        if (!(await vscode.workspace.applyEdit(edit))) throw acp.RequestError.internalError(undefined, `The edit of ${params.path} was not applied.`);
        if (!(await doc.save())) throw acp.RequestError.internalError(undefined, `${params.path} could not be saved.`);
      }
      this.deps.log.info(`fs/write_text_file ${params.path} (${params.content.length} characters)`);
      return {};
    });
  }

  private async confirmOverwrite(params: acp.WriteTextFileRequest, doc: vscode.TextDocument): Promise<void> {
    const display = fileDisplayPath(doc.uri.fsPath);
    const allowed = await this.deps.permissions.confirm({
      sessionId: params.sessionId,
      title: `Overwrite unsaved changes in ${display}`,
      message: `The agent wants to write ${display}, which has unsaved changes. Overwrite them? Review Changes → Undo brings them back.`,
      allow: 'Overwrite',
      reject: 'Keep My Changes',
      inspect: {
        label: 'Compare',
        run: async () => {
          const proposed = this.deps.scratch.put(params.content, doc.uri.fsPath, 'agent');
          await vscode.commands.executeCommand('vscode.diff', doc.uri, proposed, `${display} (yours ↔ agent's)`);
        },
      },
    });
    if (!allowed) {
      throw acp.RequestError.invalidRequest(
        { path: params.path },
        `${display} has unsaved changes that the user chose to keep; the file was not written.`,
      );
    }
  }
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
}

/** What is there before the agent writes: bytes on disk, plus unsaved text when there is some. */
async function snapshot(uri: vscode.Uri): Promise<FileSnapshot> {
  const open = openDocument(uri);
  const unsaved = open?.isDirty ? { unsavedText: open.getText() } : {};
  try {
    return { existed: true, bytes: await vscode.workspace.fs.readFile(uri), ...unsaved };
  } catch {
    return { existed: false, ...unsaved };
  }
}

/** The text the user sees: the open document (unsaved changes included), else the file. */
async function currentText(uri: vscode.Uri): Promise<string> {
  const open = openDocument(uri);
  if (open) return open.getText().replace(/\r\n/g, '\n');
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    throw acp.RequestError.resourceNotFound(uri.fsPath);
  }
  if (bytes.includes(0)) throw acp.RequestError.invalidParams({ path: uri.fsPath }, `${uri.fsPath} is a binary file; it cannot be read as text.`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/\r\n/g, '\n');
  } catch {
    throw acp.RequestError.invalidParams({ path: uri.fsPath }, `${uri.fsPath} is not UTF-8 text; it cannot be read as text.`);
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
