import * as vscode from 'vscode';
import { encodeSliced } from './model/slicedEncode';
import { samePieces, samePiecesAsLines, type TextPieces } from '../../base/textPieces';
import { DIFF_SCHEME, decodeDiffDocUri, encodeDiffDocUri, type DiffDocKey } from './model/virtualDocs';
import { revertHunkPieces, type Hunk } from './model/hunkPlacement';
import type { ToolCallState } from '../../session/model/toolCalls';
import { currentTextOrUndefined } from '../../workspace/workspaceText';
import type { AgentSessions } from '../../session/agentSessions';
import { Disposable } from '../../base/lifecycle';

export function diffDocUri(key: DiffDocKey): vscode.Uri {
  return vscode.Uri.from(encodeDiffDocUri(key));
}

/**
 * Serves the text of diff cards as read-only documents: `oldText` (or the agent's `newText` when
 * it is not the real file's content), or the whole file before the card's hunks. The URI names
 * session, tool call and content index, so one file may have many hunks, and a card whose content
 * is replaced (snippet → applied hunks) updates every open editor showing it.
 *
 * A read-only file system rather than a text document content provider: VS Code takes a file's
 * bytes from the extension host as a binary buffer, while a provider's text is JSON-serialised in
 * one go (a 10 MB file's "before" side cost the host ~45 ms in one event-loop turn).
 */
export class DiffDocumentProvider extends Disposable implements vscode.FileSystemProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changeEmitter.event;
  /**
   * "Before" texts the diff editor computed when it opened them (it reads the file to know
   * whether the hunks still stand): served from here, so one open reads and reverts once. Kept
   * as pieces (slices of the file read and the hunks' old texts): never copied into one string.
   * Kept until VS Code's document of the address holds the text served: then that document is
   * the one copy (the pieces kept the whole 10 MB file read alive beside it, as long as it was open).
   */
  private readonly computedBefore = new Map<string, TextPieces>();
  /**
   * What `stat` encoded, kept for the `readFile` that follows it; bumped per change (the mtime).
   * Once `readFile` gave the bytes away: their size (VS Code stats a large file again after
   * reading it, which encoded its 10 MB anew and kept them) and, until VS Code's document holds
   * it, their text (`handedOver`).
   */
  private readonly served = new Map<string, { version: number; bytes?: Uint8Array; text?: string | TextPieces; size?: number; handedOver?: string | TextPieces }>();

  /** Encodings under way, by address: their version and result. */
  private readonly encoding = new Map<string, { version: number; done: Promise<Encoded> }>();

  constructor(private readonly sessions: AgentSessions) {
    super();
    this._register(vscode.workspace.registerFileSystemProvider(DIFF_SCHEME, this, { isReadonly: true, isCaseSensitive: true }));
    this._register(
      sessions.onDidChangeSession(({ session, changes }) => {
        if (changes.contentReplaced.size === 0) return;
        for (const doc of vscode.workspace.textDocuments) {
          if (doc.uri.scheme !== DIFF_SCHEME) continue;
          const key = decodeDiffDocUri(doc.uri);
          if (key.ok && key.value.sessionId === session.state.sessionId && changes.contentReplaced.has(key.value.toolCallId)) {
            this.computedBefore.delete(doc.uri.toString());
            this.changed(doc.uri);
          }
        }
      }),
    );
    // The document now shows the text last handed over (loaded, or reloaded after a change).
    this._register(vscode.workspace.onDidOpenTextDocument((doc) => this.heldByDocument(doc)));
    this._register(vscode.workspace.onDidChangeTextDocument(({ document }) => this.heldByDocument(document)));
    this._register(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.computedBefore.delete(doc.uri.toString());
        this.served.delete(doc.uri.toString());
      }),
    );
  }

  /** The "before" text of a URI, as just computed by the opener; shown without computing it again. */
  rememberBefore(uri: vscode.Uri, pieces: TextPieces): void {
    const key = uri.toString();
    const previous = this.computedBefore.get(key);
    this.computedBefore.set(key, pieces);
    if (previous !== undefined) {
      // Already open with an older text (the file changed since): show the new one.
      if (!samePieces(previous, pieces)) this.changed(uri);
      return;
    }
    const shown = vscode.workspace.textDocuments.find((doc) => doc.uri.toString() === key);
    if (!shown) return;
    // Open, its text held by the document alone: compared line by line, never joined.
    if (samePiecesAsLines(pieces, shown.lineCount, (line) => shown.lineAt(line).text)) this.computedBefore.delete(key);
    else this.changed(uri);
  }

  /** Characters of the "before" texts kept here (not yet held by a document of VS Code's). */
  get keptBeforeChars(): number {
    let chars = 0;
    for (const pieces of this.computedBefore.values()) for (const piece of pieces) chars += piece.length;
    return chars;
  }

  /** A document of ours loaded what was last handed over for it: the document holds that text now. */
  private heldByDocument(doc: vscode.TextDocument): void {
    if (doc.uri.scheme !== DIFF_SCHEME) return;
    const key = doc.uri.toString();
    const served = this.served.get(key);
    if (served?.handedOver === undefined) return;
    if (this.computedBefore.get(key) === served.handedOver) this.computedBefore.delete(key);
    this.served.set(key, { version: served.version, size: served.size });
  }

  /** The text of a document (readable error text for an address that no longer leads anywhere). */
  private async contentOf(uri: vscode.Uri): Promise<string | TextPieces> {
    const decoded = decodeDiffDocUri(uri);
    if (!decoded.ok) return `ACP Native: this document address is not valid (${decoded.error}).`;
    const key = decoded.value;
    const call = this.sessions.session(key.sessionId)?.state.toolCall(key.toolCallId);
    if (!call) return 'ACP Native: this tool call is no longer available (its session was closed or cleared).';
    const item = call.content[key.index];
    if (!item || item.type !== 'diff') return 'ACP Native: this diff is no longer part of the tool call.';
    switch (key.side) {
      case 'old':
        return item.oldText ?? '';
      case 'new':
        return item.newText;
      case 'before':
        return this.computedBefore.get(uri.toString()) ?? fileBefore(item.path, hunksOf(call, item.path));
    }
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const given = this.served.get(uri.toString());
    if (given?.size !== undefined) return { type: vscode.FileType.File, ctime: 0, mtime: given.version, size: given.size };
    const entry = await this.encoded(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: entry.version, size: entry.bytes.length };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const entry = await this.encoded(uri);
    // Handed over once: the next stat answers with its size; after a change (a reload), the
    // version is bumped and the text is encoded as it is then.
    this.served.set(uri.toString(), { version: entry.version, size: entry.bytes.length, handedOver: entry.text });
    return entry.bytes;
  }

  watch(): vscode.Disposable {
    // Changes are announced through onDidChangeFile whether or not anyone watches.
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): never {
    throw vscode.FileSystemError.FileNotADirectory();
  }

  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('ACP Native diff documents are read-only.');
  }

  writeFile(): never {
    throw vscode.FileSystemError.NoPermissions('ACP Native diff documents are read-only.');
  }

  delete(): never {
    throw vscode.FileSystemError.NoPermissions('ACP Native diff documents are read-only.');
  }

  rename(): never {
    throw vscode.FileSystemError.NoPermissions('ACP Native diff documents are read-only.');
  }

  private encoded(uri: vscode.Uri): Promise<Encoded> {
    const key = uri.toString();
    const entry = this.served.get(key) ?? { version: 1 };
    if (entry.bytes) return Promise.resolve({ version: entry.version, bytes: entry.bytes, text: entry.text });
    // VS Code asks `stat` and `readFile` at once for a large file: one encoding serves both (each
    // encoded the 10 MB, and the later one's bytes stayed here after the other was handed over).
    const pending = this.encoding.get(key);
    if (pending?.version === entry.version) return pending.done;
    const done = (async (): Promise<Encoded> => {
      const text = await this.contentOf(uri);
      // A large file's side is encoded a slice per turn: in one go, 10 MB held the host for 15–30 ms.
      const bytes = await encodeSliced(text);
      // A change meanwhile bumped the version: what it serves next is encoded anew.
      if ((this.served.get(key)?.version ?? 1) !== entry.version) return { version: entry.version, bytes };
      this.served.set(key, { version: entry.version, bytes, text });
      return { version: entry.version, bytes, text };
    })().finally(() => {
      if (this.encoding.get(key)?.done === done) this.encoding.delete(key);
    });
    this.encoding.set(key, { version: entry.version, done });
    return done;
  }

  private changed(uri: vscode.Uri): void {
    const key = uri.toString();
    this.served.set(key, { version: (this.served.get(key)?.version ?? 1) + 1 });
    this.changeEmitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
}

/** A side's bytes as served, with the text they encode (absent when a change overtook them). */
interface Encoded {
  version: number;
  bytes: Uint8Array;
  text?: string | TextPieces;
}

/** The card's diffs of one file, in order. */
export function hunksOf(call: ToolCallState, path: string): Hunk[] {
  return call.content.flatMap((c) => (c.type === 'diff' && c.path === path ? [{ oldText: c.oldText ?? '', newText: c.newText }] : []));
}

/** The file before the card's hunks, from the file as it is now; the bare hunks if they no longer fit. */
async function fileBefore(path: string, hunks: Hunk[]): Promise<string | TextPieces> {
  const current = await currentTextOrUndefined(path);
  const before = current === undefined ? undefined : revertHunkPieces(current, hunks);
  return before ?? hunks.map((h) => h.oldText).join('\n…\n');
}

