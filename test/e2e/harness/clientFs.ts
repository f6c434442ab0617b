/**
 * The test client's `fs/read_text_file` and `fs/write_text_file`, served from the real disk the
 * way an editor would: reads return unsaved text when a file has some, and LF text; writes keep
 * the file's line endings and BOM, and may be refused (as an editor does when the user keeps
 * unsaved changes, or for a path outside the workspace). Every call is recorded.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';

const BOM = '\uFEFF';

export type FsCall = { method: 'read'; params: acp.ReadTextFileRequest } | { method: 'write'; params: acp.WriteTextFileRequest };

export class EditorFs {
  readonly calls: FsCall[] = [];
  /** Unsaved text by absolute path: what the "editor" shows instead of the disk. */
  readonly unsaved = new Map<string, string>();
  /** Writes refused with this message, by absolute path. */
  readonly refusals = new Map<string, string>();

  /**
   * Paths outside `root` are refused, reads and writes alike. `raw`: a plainer client that serves
   * the file's text as it is (CRLF included) and saves exactly what it is given.
   */
  constructor(
    private readonly root?: string,
    private readonly options: { raw?: boolean } = {},
  ) {}

  writesTo(filePath: string): acp.WriteTextFileRequest[] {
    return this.calls.flatMap((c) => (c.method === 'write' && c.params.path === filePath ? [c.params] : []));
  }

  read(params: acp.ReadTextFileRequest): acp.ReadTextFileResponse {
    this.calls.push({ method: 'read', params });
    this.guard(params.path, 'read');
    const unsaved = this.unsaved.get(params.path);
    const text = unsaved ?? this.readDisk(params.path);
    const served = this.options.raw ? text : text.replace(/\r\n/g, '\n');
    return { content: sliceLines(served, params.line ?? undefined, params.limit ?? undefined) };
  }

  write(params: acp.WriteTextFileRequest): acp.WriteTextFileResponse {
    this.calls.push({ method: 'write', params });
    this.guard(params.path, 'write');
    const refusal = this.refusals.get(params.path);
    if (refusal !== undefined) throw acp.RequestError.invalidRequest({ path: params.path }, refusal);
    let content = params.content;
    if (this.options.raw) {
      mkdirSync(path.dirname(params.path), { recursive: true });
    } else if (existsSync(params.path)) {
      // An editor keeps the document's line endings and BOM.
      const old = readFileSync(params.path, 'utf8');
      const lf = content.replace(/\r\n/g, '\n');
      content = old.includes('\r\n') ? lf.replace(/\n/g, '\r\n') : lf;
      if (old.startsWith(BOM)) content = BOM + content;
    } else {
      mkdirSync(path.dirname(params.path), { recursive: true });
    }
    writeFileSync(params.path, content);
    // Saved: the editor's buffer and the disk agree again.
    this.unsaved.delete(params.path);
    return {};
  }

  private readDisk(filePath: string): string {
    if (!existsSync(filePath) || statSync(filePath).isDirectory()) throw acp.RequestError.resourceNotFound(filePath);
    const bytes = readFileSync(filePath);
    if (bytes.includes(0)) throw acp.RequestError.invalidParams({ path: filePath }, `${filePath} is a binary file; it cannot be read as text.`);
    try {
      // A raw client serves the BOM too, as Node's readFile(…, 'utf8') does.
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: this.options.raw === true }).decode(bytes);
    } catch {
      throw acp.RequestError.invalidParams({ path: filePath }, `${filePath} is not UTF-8 text; it cannot be read as text.`);
    }
  }

  private guard(filePath: string, use: 'read' | 'write'): void {
    if (this.root === undefined) return;
    const rel = path.relative(this.root, filePath);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      throw acp.RequestError.invalidParams({ path: filePath }, `${filePath} is outside the workspace; the agent may not ${use} it.`);
    }
  }
}

function sliceLines(text: string, line: number | undefined, limit: number | undefined): string {
  if (line === undefined && limit === undefined) return text;
  const lines = text.split('\n');
  const start = (line ?? 1) - 1;
  return lines.slice(start, limit === undefined ? undefined : start + limit).join('\n');
}
