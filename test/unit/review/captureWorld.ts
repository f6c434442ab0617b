/**
 * A fake world for the capture's state machine: files in memory (bytes, folders, large files), the
 * editor's documents, a clock, the large-file work recorded, and the session's real tool-call store
 * in front (what the extension feeds it).
 */
import type { ToolCall, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { encodeText } from '../../../src/extension/review/model/actionHunks';
import { ActionLog, type FileChange, type LargeSnapshot, type Snapshot } from '../../../src/extension/review/model/actionLog';
import { Capture } from '../../../src/extension/review/model/capture';
import type { FileReads, FolderEntry, LargeFileWork, LogChange, SavedDocument } from '../../../src/extension/review/model/captureDeps';
import { ChangeViews } from '../../../src/extension/review/model/changeViews';
import { ToolCallStore } from '../../../src/extension/session/model/toolCalls';

type Entry = Uint8Array | 'folder' | { large: number };

export class FakeFiles implements FileReads {
  readonly files = new Map<string, Entry>();
  /** Open documents without unsaved changes (null: over the size bound). */
  readonly saved = new Map<string, string | null>();
  readonly unsaved = new Map<string, string>();
  /** Symlinks: a path and the path it resolves to. */
  readonly links = new Map<string, string>();
  readonly realPathAsked: string[] = [];
  savedDocumentsTaken = 0;

  write(path: string, text: string, bom = false): void {
    this.files.set(path, encodeText(text, bom));
  }

  snapshot(path: string): Snapshot {
    const entry = this.files.get(path);
    if (entry === undefined) return { kind: 'absent' };
    if (entry === 'folder') return { kind: 'unknown', reason: 'not a regular file' };
    if (entry instanceof Uint8Array) return { kind: 'bytes', bytes: entry };
    return { kind: 'large', size: entry.large };
  }

  realPath(path: string): string {
    this.realPathAsked.push(path);
    return this.links.get(path) ?? path;
  }

  isFolder(path: string): boolean {
    return this.files.get(path) === 'folder';
  }

  entries(folder: string): readonly FolderEntry[] {
    const entries: FolderEntry[] = [];
    for (const [path, entry] of this.files) {
      const rest = path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined;
      if (rest === undefined || rest.includes('/')) continue;
      entries.push({ name: rest, kind: entry === 'folder' ? 'folder' : 'file' });
    }
    return entries;
  }

  savedDocuments(): ReadonlyMap<string, string | null> {
    this.savedDocumentsTaken++;
    return new Map(this.saved);
  }

  unsavedText(path: string): string | undefined {
    return this.unsaved.get(path);
  }
}

export class FakeLarge implements LargeFileWork {
  readonly copied: string[] = [];
  readonly hashed: string[] = [];
  readonly dropped: string[] = [];

  copyBefore(_sessionId: string, path: string, size: number): Snapshot {
    this.copied.push(path);
    return { kind: 'large', size, blob: `copy of ${path}` };
  }

  fingerprintAfter(_sessionId: string, path: string, _after: LargeSnapshot): void {
    this.hashed.push(path);
  }

  dropBefore(change: FileChange): void {
    if (change.before.kind !== 'large' || change.before.blob === undefined) return;
    this.dropped.push(change.before.blob);
    delete change.before.blob;
  }
}

export class FakeDocument implements SavedDocument {
  isClosed = false;
  constructor(
    public version: number,
    public text: string,
  ) {}

  getText(): string {
    return this.text;
  }
}

export const SESSION = 's1';

/** A capture of session `s1`, its turn 0 running, fed through a real tool-call store. */
export function captureWorld() {
  const files = new FakeFiles();
  const large = new FakeLarge();
  const log = new ActionLog();
  const views = new ChangeViews({ log, read: (path) => files.snapshot(path) });
  const clock = { now: 1_000 };
  const told: LogChange[] = [];
  const capture = new Capture({ log, views, reads: files, large, now: () => clock.now, changed: (_sessionId, how) => told.push(how) });
  const store = new ToolCallStore();
  capture.beginTurn(SESSION, 0);
  return {
    files,
    large,
    log,
    views,
    clock,
    told,
    capture,
    /** A `tool_call` as the agent sends it. */
    call(message: Omit<ToolCall, 'title'> & { title?: string }): void {
      capture.callApplied(SESSION, store.applyToolCall({ title: message.toolCallId, ...message }));
    },
    /** A `tool_call_update` as the agent sends it. */
    update(message: ToolCallUpdate): void {
      capture.callApplied(SESSION, store.applyUpdate(message));
    },
    changes: () => log.changes(SESSION),
    only(): FileChange {
      const changes = log.changes(SESSION);
      if (changes.length !== 1) throw new Error(`${changes.length} changes, not one: ${changes.map((c) => c.path).join(', ')}`);
      return changes[0];
    },
  };
}

export function text(snapshot: Snapshot | undefined): string {
  if (snapshot?.kind !== 'bytes') return `(${snapshot?.kind ?? 'none'})`;
  return Buffer.from(snapshot.bytes).toString('utf8');
}
