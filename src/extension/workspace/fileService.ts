import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as acp from '@agentclientprotocol/sdk';
import { KeyedSerialQueue } from '../base/serialQueue';
import { normalizeAbsolute, sliceLines } from './model/paths';
import { changedBytes, changedRange, unreadableMessage } from './model/fileText';
import { errorMessage, type Logger } from '../base/log';
import { fileDisplayPath } from './titles';
import type { PermissionService } from '../permissions/permissionService';
import type { ScratchDocuments } from './scratchDocuments';
import type { WorkspaceGuard } from './workspaceGuard';
import { currentText, openDocumentOf, readDisk, resolvePath, type DiskText } from './workspaceText';

/**
 * `fs/read_text_file` and `fs/write_text_file`. The agent reads what the user sees (unsaved
 * changes included). A write changes only the range whose text changed, so the file keeps its
 * BOM and every untouched byte (line endings, mixed ones too); it is saved before the reply.
 * Paths are resolved first (symlinks, `./`, `../`), so every spelling of a file is one file: its
 * writes are serialized, its open document is found, its unsaved changes are asked about. Only
 * UTF-8 files are read or written: anything else is refused with a clear error, never
 * rewritten with replacement characters. The action log records each write for review
 * (requests/clientRequests.ts wraps this service).
 */
/** Above this, an `fs/read_text_file` answer gets an event-loop turn of its own (see `read`). */
const BIG_ANSWER_CHARS = 1024 * 1024;

/** Lines of a text as `split('\n').length` counts them, without making them. */
function countLines(text: string): number {
  let count = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

export class FileService {
  private readonly writes = new KeyedSerialQueue();
  /** The last write to have resolved its path (never rejects). */
  private admitted: Promise<string> = Promise.resolve('');

  constructor(
    private readonly deps: {
      log: Logger;
      guard: WorkspaceGuard;
      permissions: PermissionService;
      scratch: ScratchDocuments;
    },
  ) {}

  async read(params: acp.ReadTextFileRequest, signal?: AbortSignal): Promise<acp.ReadTextFileResponse> {
    if (params.line != null && params.line < 1) throw acp.RequestError.invalidParams({ line: params.line }, 'line is 1-based.');
    if (params.limit != null && params.limit < 0) throw acp.RequestError.invalidParams({ limit: params.limit }, 'limit must not be negative.');
    const filePath = await this.deps.guard.check(params.path, 'read', params.sessionId, signal);
    throwIfCancelled(signal, params.path);
    const display = fileDisplayPath(filePath);
    const current = await explained(`read ${display}`, () => currentText(filePath));
    let text: string;
    switch (current.kind) {
      case 'missing':
        throw acp.RequestError.resourceNotFound(params.path);
      case 'directory':
        throw acp.RequestError.invalidParams({ path: params.path }, `${display} is a directory, not a file.`);
      case 'unreadable':
        throw acp.RequestError.invalidParams({ path: params.path }, unreadableMessage(current.reason, display, 'read'));
      case 'text':
        text = current.text;
        break;
    }
    if (params.line != null) {
      const lineCount = countLines(text);
      if (params.line > lineCount) {
        throw acp.RequestError.invalidParams({ line: params.line }, `line ${params.line} is past the end of ${params.path} (${lineCount} lines).`);
      }
    }
    const content = sliceLines(text, params.line, params.limit);
    // A big answer is serialised and sent by the SDK as soon as this returns: in a turn of the
    // event loop of its own, not after reading and decoding the file in the same one.
    if (content.length > BIG_ANSWER_CHARS) await new Promise((resolve) => setImmediate(resolve));
    return { content };
  }

  async write(params: acp.WriteTextFileRequest, signal?: AbortSignal): Promise<acp.WriteTextFileResponse> {
    // Keyed by the resolved path: `/ws/a`, `/ws/./a` and a symlink to it wait for each other.
    // Paths are resolved one after the other, so writes join their queue in arrival order.
    const key = this.admitted.then(() => resolvedKey(params.path));
    this.admitted = key;
    return this.writes.run(await key, async () => {
      throwIfCancelled(signal, params.path);
      const filePath = await this.deps.guard.check(params.path, 'write', params.sessionId, signal);
      throwIfCancelled(signal, params.path);
      const display = fileDisplayPath(filePath);
      const writable = async () => {
        const disk = await explained(`write ${display}`, () => readDisk(filePath));
        if (disk.kind === 'directory') throw acp.RequestError.invalidParams({ path: params.path }, `${display} is a directory; the agent cannot write it as a file.`);
        if (disk.kind === 'unreadable') throw acp.RequestError.invalidParams({ path: params.path }, unreadableMessage(disk.reason, display, 'write'));
        return disk;
      };
      let disk = await writable();
      const open = await openDocumentOf(filePath);
      if (open?.isDirty) {
        await this.confirmOverwrite(params, open, signal);
        // The question may have waited a while: write over what is there now.
        disk = await writable();
      }
      throwIfCancelled(signal, params.path);
      await explained(`write ${display}`, () => this.apply(filePath, disk, open?.isDirty ? open : undefined, params.content));
      this.deps.log.info(`fs/write_text_file ${filePath} (${params.content.length} characters)`);
      return {};
    });
  }

  private async apply(filePath: string, disk: Exclude<DiskText, { kind: 'directory' | 'unreadable' }>, dirty: vscode.TextDocument | undefined, content: string): Promise<void> {
    const uri = vscode.Uri.file(filePath);
    const display = fileDisplayPath(filePath);
    if (dirty) {
      // The user chose to overwrite their unsaved text: one undoable edit of the document, saved.
      const text = dirty.getText();
      const change = changedRange(text, content, dirty.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n');
      if (change) {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(dirty.uri, new vscode.Range(dirty.positionAt(change.start), dirty.positionAt(change.end)), change.text);
        if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`the edit of ${display} was not applied`);
      }
      if (!(await dirty.save())) throw new Error(`${display} could not be saved`);
      return;
    }
    if (disk.kind === 'missing') {
      // A new file (and its folders) is created with its content: one undoable edit.
      const create = new vscode.WorkspaceEdit();
      create.createFile(uri, { ignoreIfExists: true, contents: new TextEncoder().encode(content) });
      if (!(await vscode.workspace.applyEdit(create))) throw new Error(`could not create ${display}`);
      return;
    }
    // The file on disk is the truth (a saved document shows it and follows it): only the changed
    // range is replaced, so its BOM and every untouched line ending stay byte for byte. A
    // document would normalize mixed line endings when it loads and write them all on save.
    const change = changedRange(disk.text, content);
    if (!change) return;
    await fs.writeFile(filePath, changedBytes(disk.bytes, disk.text, disk.bom, change));
  }

  private async confirmOverwrite(params: acp.WriteTextFileRequest, doc: vscode.TextDocument, signal: AbortSignal | undefined): Promise<void> {
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
      signal,
    });
    throwIfCancelled(signal, params.path);
    if (!allowed) {
      throw acp.RequestError.invalidRequest(
        { path: params.path },
        `${display} has unsaved changes that the user chose to keep; the file was not written.`,
      );
    }
  }
}

/** The queue key of a path: resolved when it can be; the check inside the queue says why not. */
async function resolvedKey(rawPath: string): Promise<string> {
  const normalized = normalizeAbsolute(rawPath);
  if (!normalized.ok) return rawPath;
  const resolved = await resolvePath(normalized.path).catch(() => undefined);
  return resolved?.ok ? resolved.path : normalized.path;
}

/** The agent cancelled the request ($/cancel_request): nothing more is done for it. */
function throwIfCancelled(signal: AbortSignal | undefined, path: string): void {
  if (signal?.aborted) throw acp.RequestError.requestCancelled({ path }, 'the agent cancelled the request; nothing was done.');
}

/** Runs a file operation; a failure reaches the agent saying what failed, never a bare "Internal error". */
async function explained<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof acp.RequestError) throw error;
    throw acp.RequestError.internalError({ reason: errorMessage(error) }, `Could not ${what}: ${errorMessage(error)}`);
  }
}
