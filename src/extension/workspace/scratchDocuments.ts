import * as vscode from 'vscode';
import { BoundedTexts } from './model/boundedTexts';
import { Disposable } from '../base/lifecycle';

export const SCRATCH_SCHEME = 'acp-native-snapshot';

/**
 * Read-only in-memory documents for texts that exist nowhere on disk: a file's content before the
 * agent changed it, or what the agent proposes to write over unsaved changes. The URI path ends in
 * the real file name, so the language mode is right. Bounded: the oldest snapshots are forgotten
 * once there are many (their documents then say so), so a long session does not grow without end.
 */
export class ScratchDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly texts = new BoundedTexts({ maxEntries: 200, maxChars: 64 * 1024 * 1024 });
  private nextId = 1;

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(SCRATCH_SCHEME, this));
  }

  /** Stores a text and returns the URI that shows it. */
  put(text: string, fsPath: string, label: string): vscode.Uri {
    const id = String(this.nextId++);
    this.texts.set(id, text);
    return vscode.Uri.from({ scheme: SCRATCH_SCHEME, path: fsPath, query: new URLSearchParams({ id, label }).toString() });
  }

  /** Forgets the text behind a URI made by `put`. */
  delete(uri: vscode.Uri): void {
    const id = new URLSearchParams(uri.query).get('id');
    if (id) this.texts.delete(id);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = new URLSearchParams(uri.query).get('id') ?? '';
    return this.texts.get(id) ?? 'ACP Native: this snapshot is no longer available.';
  }
}
