import * as fs from 'node:fs';
import * as vscode from 'vscode';

/** Where the diff editor reads a large file's copy from: read-only, so nobody edits the text before. */
export const LARGE_COPY_SCHEME = 'acp-native-large';

/** The URI of a large copy, ending in the file's own name (for its language mode). */
export function largeCopyUri(blob: string, fileName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: LARGE_COPY_SCHEME, path: `/${blob}/${fileName}` });
}

/**
 * Serves the copies of large files (the action log's texts before, kept in its storage), read-only,
 * to VS Code's diff editor, which diffs them off the extension host.
 */
export function registerLargeCopies(fileOf: (blob: string) => string): vscode.Disposable {
  return vscode.workspace.registerFileSystemProvider(LARGE_COPY_SCHEME, new LargeCopies(fileOf), { isReadonly: true, isCaseSensitive: true });
}

class LargeCopies implements vscode.FileSystemProvider {
  private readonly never = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.never.event;

  /** `fileOf` throws for a name that is not one of the copies. */
  constructor(private readonly fileOf: (blob: string) => string) {}

  private pathOf(uri: vscode.Uri): string {
    const blob = uri.path.split('/')[1] ?? '';
    try {
      return this.fileOf(blob);
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    try {
      const stat = await fs.promises.stat(this.pathOf(uri));
      return { type: vscode.FileType.File, ctime: stat.ctimeMs, mtime: stat.mtimeMs, size: stat.size, permissions: vscode.FilePermission.Readonly };
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    try {
      return await fs.promises.readFile(this.pathOf(uri));
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}
