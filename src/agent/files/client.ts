/**
 * The client file store: files are read and written through the client's `fs/read_text_file` and
 * `fs/write_text_file`. In an editor that means the agent sees unsaved text, and its writes are
 * the editor's own (undoable, keeping the file's line endings and BOM, asking before overwriting
 * unsaved changes, offered for review). Like the local store it returns storage facts only.
 *
 * Tools see LF text; what goes back keeps the line endings that were read, as on local disk: an
 * edit splices the text as the client served it (untouched lines keep CRLF or a mix), a whole
 * write takes the dominant ending, a BOM stays. A client that serves raw file text and saves what
 * it is given then keeps the file's bytes. A read that fails because the file does not exist
 * means a create. A read that fails because the file is binary / not UTF-8 makes `edit` refuse;
 * a `write` still goes to the client, which replaces the file or refuses — it is the client's
 * file and the client's call, and nothing is ever written behind its back. Any other client error
 * fails the tool call with the client's message.
 */
import type { ReadTextFileRequest, ReadTextFileResponse, WriteTextFileRequest, WriteTextFileResponse } from '@agentclientprotocol/sdk';
import { planReplacement } from '../textEdit';
import { ToolError } from '../tools/types';
import { BOM, assertNotDirectory, decodeText, spliceRaw, type RawText } from './local';
import type { EditFacts, FileStore, MutationFacts, TextFile } from './store';

/** The two client methods, as the connection sends them. */
export interface ClientFs {
  readTextFile(params: ReadTextFileRequest): Promise<ReadTextFileResponse>;
  writeTextFile(params: WriteTextFileRequest): Promise<WriteTextFileResponse>;
}

/** What a read through the client found. */
type Found = RawText | { kind: 'missing' } | { kind: 'binary'; reason: string };

const RESOURCE_NOT_FOUND = -32002;

export function clientFileStore(client: ClientFs, sessionId: string): FileStore {
  const read = async (filePath: string): Promise<Found> => {
    // The agent runs next to the files: a folder is refused here, not mistaken for a missing file.
    await assertNotDirectory(filePath);
    try {
      const { content } = await client.readTextFile({ sessionId, path: filePath });
      return decodeText(content);
    } catch (error) {
      if (isNotFound(error, filePath)) return { kind: 'missing' };
      if (isBinary(error, filePath)) return { kind: 'binary', reason: messageOf(error) };
      throw new ToolError(`Could not read ${filePath} through the client: ${messageOf(error)}`);
    }
  };

  const write = async (filePath: string, content: string): Promise<void> => {
    try {
      await client.writeTextFile({ sessionId, path: filePath, content });
    } catch (error) {
      throw new ToolError(`Could not write ${filePath} through the client: ${messageOf(error)}`);
    }
  };

  return {
    async readText(filePath): Promise<TextFile> {
      const found = await read(filePath);
      if (found.kind === 'missing') throw new ToolError(`File not found: ${filePath}`);
      return found.kind === 'text' ? { kind: 'text', text: found.text } : { kind: 'binary' };
    },

    async writeText(filePath, content): Promise<MutationFacts> {
      const existing = await read(filePath);
      const after = content.replace(/\r\n/g, '\n');
      // An existing text file keeps its dominant line ending and its BOM; anything else gets the content as given.
      const sent = existing.kind === 'text' ? (existing.bom ? BOM : '') + (existing.eol === '\r\n' ? after.replace(/\n/g, '\r\n') : after) : content;
      await write(filePath, sent);
      return {
        before: existing.kind === 'text' ? existing.text : null,
        after,
        created: existing.kind === 'missing',
      };
    },

    async editText(filePath, oldString, newString, replaceAll): Promise<EditFacts> {
      const existing = await read(filePath);
      const oldLf = oldString.replace(/\r\n/g, '\n');
      const newLf = newString.replace(/\r\n/g, '\n');
      if (existing.kind === 'missing') {
        if (oldLf !== '') throw new ToolError(`File not found: ${filePath}`);
        await write(filePath, newString);
        return { before: null, after: newLf, created: true, sites: [] };
      }
      if (existing.kind === 'binary') {
        throw new ToolError(`Refusing to edit ${filePath}: it is binary or not UTF-8 text (${existing.reason}). Use write to replace it whole.`);
      }
      if (oldLf === '') {
        if (existing.text !== '') throw new ToolError('old_string is empty but the file is not; give the text to replace.');
        await write(filePath, (existing.bom ? BOM : '') + newLf.replace(/\n/g, existing.eol));
        return { before: '', after: newLf, created: false, sites: [{ beforeOffset: 0, oldLength: 0, afterOffset: 0, newLength: newLf.length }] };
      }
      const plan = planReplacement(existing.text, oldLf, newLf, replaceAll);
      if (!plan.ok) throw new ToolError(plan.error);
      await write(filePath, (existing.bom ? BOM : '') + spliceRaw(existing, plan.sites, newLf));
      return { before: existing.text, after: plan.after, created: false, sites: plan.sites };
    },
  };
}

/**
 * "No such file": `-32002` (resource not found, as the spec names it) about a resource rather than
 * the session, or a message that says so (clients that answer with a plain error).
 */
function isNotFound(error: unknown, filePath: string): boolean {
  const { code, data } = (error ?? {}) as { code?: unknown; data?: unknown };
  if (code === RESOURCE_NOT_FOUND) return !(typeof data === 'object' && data !== null && 'sessionId' in data);
  return /ENOENT|no such file|file not found|does not exist|doesn't exist/i.test(messageWithout(error, filePath));
}

/** "Binary or not UTF-8", as clients say it (e.g. "… is a binary file", "… is not UTF-8 text"). */
function isBinary(error: unknown, filePath: string): boolean {
  return /binary|utf-?8|not a text file|cannot be decoded/i.test(messageWithout(error, filePath));
}

/** The message without paths in it: a folder named `binary` says nothing about the file. */
function messageWithout(error: unknown, filePath: string): string {
  return messageOf(error).split(filePath).join('').replace(/\S*[\\/]\S*/g, '');
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return String(error);
}
