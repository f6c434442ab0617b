import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { errorMessage, type Logger } from '../base/log';
import { encodeEntry, journalText, parseJournal, type JournalEntry, type ReadJournal } from './model/sessionJournal';

/** A journal past this size stops (a `cut` entry): such a session is loaded from its agent instead. */
export const MAX_JOURNAL_BYTES = 8 * 1024 * 1024;
/** Journals kept in the storage; the others (sessions no longer in the history) are dropped at startup. */
const MAX_JOURNALS = 100;
/** Entries are appended in batches this far apart (and at each turn's end). */
const FLUSH_DELAY_MS = 300;

interface Open {
  readonly file: string;
  /** Encoded entries not written yet. */
  pending: string;
  /** Bytes in the file plus pending. */
  size: number;
  cut: boolean;
  /** The file holds an earlier journal the first write replaces. */
  fresh: boolean;
}

/**
 * Each top-level session's journal in the workspace's storage (`sessions/<hash>.jsonl`): what its
 * state was fed, so that after an agent restart or a window reload the chat shows the
 * conversation from it and the agent is asked to `session/resume` rather than replay it all
 * (`session/load`). Appends are batched; `flushSync` writes what waits (deactivation, before a read).
 */
export class SessionJournals {
  private readonly open = new Map<string, Open>();
  private readonly continuing = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** Search text by file, while its size and time are unchanged. */
  private readonly texts = new Map<string, { stamp: string; text: string }>();

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
  ) {}

  /**
   * What a new record's state hands its journal (see `SessionStateOptions.journal`). The journal
   * starts again (the agent replays the session, or it is new: an id a new agent process handed
   * out again) unless `continueWith` said this record goes on with it (`session/resume`). What was
   * recorded goes only once something new is written, so a load the agent refuses loses nothing.
   */
  writer(sessionId: string): (entry: JournalEntry) => void {
    const goesOn = this.continuing.delete(sessionId);
    if (!goesOn) this.open.set(sessionId, { file: this.fileOf(sessionId), pending: '', size: 0, cut: false, fresh: true });
    return (entry) => this.append(sessionId, entry);
  }

  continueWith(sessionId: string): void {
    this.continuing.add(sessionId);
  }

  /** The session's journal as recorded so far; undefined when there is none. */
  read(sessionId: string): ReadJournal | undefined {
    this.flushSync();
    let text: string;
    try {
      text = fs.readFileSync(this.fileOf(sessionId), 'utf8');
    } catch {
      return undefined;
    }
    return parseJournal(text);
  }

  /** The words of the session's conversation (search); undefined when nothing is recorded. */
  async textOf(sessionId: string): Promise<string | undefined> {
    const file = this.fileOf(sessionId);
    try {
      const stat = await fsp.stat(file);
      const stamp = `${stat.size}:${stat.mtimeMs}`;
      const cached = this.texts.get(file);
      if (cached?.stamp === stamp) return cached.text;
      const text = journalText(parseJournal(await fsp.readFile(file, 'utf8')).entries);
      this.texts.set(file, { stamp, text });
      return text;
    } catch {
      return undefined;
    }
  }

  /** Drops a session's journal (Delete). */
  forget(sessionId: string): void {
    this.open.delete(sessionId);
    fs.rmSync(this.fileOf(sessionId), { force: true });
  }

  /** Drops the journals of sessions not in `keep` (no longer in the history), and the oldest past the limit. */
  prune(keep: readonly string[]): void {
    const wanted = new Set(keep.slice(0, MAX_JOURNALS).map((id) => path.basename(this.fileOf(id))));
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name.endsWith('.jsonl') && !wanted.has(name)) fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }

  flushSync(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const open of this.open.values()) {
      if (!open.pending) continue;
      const text = open.pending;
      open.pending = '';
      try {
        fs.mkdirSync(this.dir, { recursive: true });
        if (open.fresh) fs.writeFileSync(open.file, text);
        else fs.appendFileSync(open.file, text);
        open.fresh = false;
      } catch (error) {
        this.log.warn(`Session journal: could not write ${open.file}: ${errorMessage(error)}`);
        // A gap would show a wrong conversation later: the journal says it is not whole.
        open.cut = true;
        try {
          fs.appendFileSync(open.file, encodeEntry({ k: 'cut', reason: `a write failed: ${errorMessage(error)}` }));
        } catch {
          // The next read sees a torn or missing file: incomplete either way.
        }
      }
    }
  }

  dispose(): void {
    this.flushSync();
  }

  private append(sessionId: string, entry: JournalEntry): void {
    let open = this.open.get(sessionId);
    if (!open) {
      const file = this.fileOf(sessionId);
      let size = 0;
      try {
        size = fs.statSync(file).size;
      } catch {
        // A new journal.
      }
      open = { file, pending: '', size, cut: false, fresh: false };
      this.open.set(sessionId, open);
    }
    if (open.cut) return;
    let line = encodeEntry(entry);
    if (open.size + Buffer.byteLength(line) > MAX_JOURNAL_BYTES) {
      open.cut = true;
      line = encodeEntry({ k: 'cut', reason: `the journal passed ${MAX_JOURNAL_BYTES / (1024 * 1024)} MB` });
    }
    open.pending += line;
    open.size += Buffer.byteLength(line);
    if (entry.k === 'end' || open.cut) this.flushSync();
    else this.timer ??= setTimeout(() => this.flushSync(), FLUSH_DELAY_MS);
  }

  private fileOf(sessionId: string): string {
    return path.join(this.dir, `${crypto.createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.jsonl`);
  }
}
