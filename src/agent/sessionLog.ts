/**
 * Sessions as append-only JSONL logs, one file per session under `<stateDir>/sessions/`.
 * Appends are synchronous: an event is on disk before the update derived from it goes out, and a
 * crash can tear at most the last line — which reading skips with a warning, losing nothing before.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { log } from './log';
import { readSessionEvent, SESSION_LOG_VERSION, sessionEvent, type SessionEvent, type SessionHeader } from './sessionEvents';

/** Session ids become file names: nothing that could climb out of the folder. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** session/list reads only this much of each log for its title. */
const SUMMARY_READ_BYTES = 64 * 1024;
const TITLE_CHARS = 80;

export interface SessionSummary {
  sessionId: string;
  cwd: string;
  title?: string;
  updatedAt: string;
}

export interface LoadedLog {
  header: SessionHeader;
  events: SessionEvent[];
  /** One line per skipped line, for the stderr log. */
  warnings: string[];
}

export function sessionsFolder(stateDir: string): string {
  return path.join(stateDir, 'sessions');
}

export function isSafeSessionId(id: string): boolean {
  return SAFE_ID.test(id);
}

export class SessionLog {
  private fd: number | undefined;

  private constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'a');
  }

  /** Starts a new log with its header event. */
  static create(stateDir: string, sessionId: string, cwd: string): SessionLog {
    if (!isSafeSessionId(sessionId)) throw new Error(`unsafe session id ${sessionId}`);
    const folder = sessionsFolder(stateDir);
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, `${sessionId}.jsonl`);
    // 'wx': never clobber an existing session.
    fs.writeFileSync(file, '', { flag: 'wx' });
    const sessionLog = new SessionLog(file);
    sessionLog.append({ type: 'session', version: SESSION_LOG_VERSION, sessionId, cwd, createdAt: new Date().toISOString() });
    return sessionLog;
  }

  /**
   * Opens an existing log to read it whole and append to it. A torn last line (no final newline:
   * the agent died mid-write) is cut off first, so the next event starts on a line of its own.
   */
  static open(stateDir: string, sessionId: string): { log: SessionLog; loaded: LoadedLog } | undefined {
    if (!isSafeSessionId(sessionId)) return undefined;
    const file = path.join(sessionsFolder(stateDir), `${sessionId}.jsonl`);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    const loaded = parseLog(text, file);
    if (text.length > 0 && !text.endsWith('\n')) {
      fs.truncateSync(file, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
    }
    return { log: new SessionLog(file), loaded };
  }

  /** Validates, then appends one event. Invalid events are a bug: they throw and are not written. */
  append(event: SessionEvent): void {
    const valid = sessionEvent.parse(event);
    if (this.fd === undefined) throw new Error(`session log ${this.file} is closed`);
    fs.writeSync(this.fd, `${JSON.stringify(valid)}\n`);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Parses a whole log. Unreadable lines are skipped with a warning; a missing header is fatal. */
export function parseLog(text: string, source: string): LoadedLog {
  const lines = text.split('\n');
  const events: SessionEvent[] = [];
  const warnings: string[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const event = parseLine(line);
    if (event !== undefined) {
      events.push(event);
      return;
    }
    const isLast = lines.slice(index + 1).every((rest) => rest.trim() === '');
    warnings.push(`${source}:${index + 1}: skipped ${isLast ? 'a torn or corrupt last line' : 'a corrupt line'}`);
  });
  for (const warning of warnings) log.warn(warning);
  const header = events[0];
  if (header?.type !== 'session') throw new Error(`${source}: not a session log (no header line)`);
  return { header, events, warnings };
}

function parseLine(line: string): SessionEvent | undefined {
  try {
    return readSessionEvent(JSON.parse(line));
  } catch {
    return undefined;
  }
}

/** Sessions in the state folder, newest first; only those of `cwd` when given. */
export function listSessions(stateDir: string, cwd?: string): SessionSummary[] {
  const folder = sessionsFolder(stateDir);
  let names: string[];
  try {
    names = fs.readdirSync(folder).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const summaries: SessionSummary[] = [];
  for (const name of names) {
    const summary = summarize(path.join(folder, name));
    if (summary !== undefined && (cwd === undefined || summary.cwd === cwd)) summaries.push(summary);
  }
  return summaries.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

function summarize(file: string): SessionSummary | undefined {
  try {
    const fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(SUMMARY_READ_BYTES);
    const bytes = fs.readSync(fd, buffer, 0, buffer.length, 0);
    const { mtime } = fs.fstatSync(fd);
    fs.closeSync(fd);
    const lines = buffer.subarray(0, bytes).toString('utf8').split('\n');
    const header = parseLine(lines[0] ?? '');
    if (header?.type !== 'session') return undefined;
    let title: string | undefined;
    for (const line of lines.slice(1)) {
      const event = parseLine(line);
      if (event?.type !== 'user_message') continue;
      const text = event.content.map((block) => (typeof block.text === 'string' ? block.text : '')).join(' ');
      title = oneLine(text);
      break;
    }
    return { sessionId: header.sessionId, cwd: header.cwd, ...(title ? { title } : {}), updatedAt: mtime.toISOString() };
  } catch (error) {
    log.warn(`cannot read session ${file}`, error);
    return undefined;
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_CHARS ? `${flat.slice(0, TITLE_CHARS - 1)}…` : flat;
}
