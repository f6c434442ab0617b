import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { MAX_SNAPSHOT_BYTES } from './model/actionLog';
import type { FileReads, FolderEntry } from './model/captureDeps';
import { openDocument, readSnapshotSync, realPath } from './snapshotFiles';

/** What the capture reads of the workspace: files on disk, and the editor's open documents. */
export class WorkspaceReads implements FileReads {
  /**
   * The text each open document had when last taken, by version: a document unchanged since (same
   * version, still saved) is not copied again (`getText` joins its lines into a new string, as long
   * as the document, at every turn).
   */
  private readonly taken = new WeakMap<vscode.TextDocument, { version: number; text: string }>();

  snapshot(path: string) {
    return readSnapshotSync(path);
  }

  realPath(path: string): string {
    return realPath(path);
  }

  isFolder(path: string): boolean {
    return fs.statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  }

  entries(folder: string): readonly FolderEntry[] {
    try {
      return fs.readdirSync(folder, { withFileTypes: true }).map((e) => ({ name: e.name, kind: e.isDirectory() ? 'folder' : e.isFile() ? 'file' : 'other' }));
    } catch {
      return [];
    }
  }

  savedDocuments(): ReadonlyMap<string, string | null> {
    const texts = new Map<string, string | null>();
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== 'file' || doc.isDirty) continue;
      const path = doc.uri.fsPath;
      // The log keeps no text over its size bound in memory: joining the lines of a large document
      // holds the host and keeps a copy per open large document. Its length in characters (never
      // more than its UTF-8 bytes) is counted without joining.
      if (doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end) > MAX_SNAPSHOT_BYTES) {
        this.taken.delete(doc);
        texts.set(path, null);
        continue;
      }
      const taken = this.taken.get(doc);
      if (taken?.version === doc.version) {
        texts.set(path, taken.text);
        continue;
      }
      const text = doc.getText();
      this.taken.set(doc, { version: doc.version, text });
      texts.set(path, text);
    }
    return texts;
  }

  unsavedText(path: string): string | undefined {
    const doc = openDocument(path);
    return doc?.isDirty ? doc.getText() : undefined;
  }
}
