/**
 * A realistic stream of `session/update` notifications for the ingestion benchmark, built from the
 * recorded turn of Claude's ACP adapter (test/fixtures/acp/claude-agent-acp-turn.jsonl): its
 * updates are the templates, replayed in cycles with fresh tool-call ids, so every shape is one a
 * real agent sent (`_meta` included).
 *
 * One cycle (35 updates, 4 tool calls): message chunks; a Read (call, title+location, tool
 * response, completed with text content); an Edit (call, input, call-time diff snippet, applied
 * hunk replacing it, completed); a Write (new file: `oldText: null`); a Bash display terminal
 * (call with `terminal_info`, input, four `_meta.terminal_output` chunks, `terminal_exit`); the
 * closing message chunks and a `usage_update`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';

export const FIXTURE = join(__dirname, '../../../test/fixtures/acp/claude-agent-acp-turn.jsonl');

/** Fixture `seq`s of one cycle, in order. 49 (terminal output) is repeated with varied data. */
const CYCLE: readonly (number | 'output')[] = [
  13, 14, // agent_message_chunk
  15, 16, 18, 19, // Read
  21, 22,
  23, 24, 25, 29, 30, // Edit: snippet, then applied hunk
  32, 33, 34, 38, 39, // Write (new file)
  41, 42,
  43, 44, 45, 'output', 'output', 'output', 'output', 50, // Bash (display terminal)
  52, 53, 54, 55, 56, 57, // agent_message_chunk
  9, // usage_update
];

/** Ids in the fixture, replaced per cycle. */
const FIXTURE_IDS = ['toolu_stub_01_read', 'toolu_stub_02_edit', 'toolu_stub_03_write', 'toolu_stub_04_bash'];

interface Recorded {
  seq: number;
  dir: 'in' | 'out';
  msg: { method?: string; params?: SessionNotification };
}

function fixtureUpdates(): Map<number, SessionNotification> {
  const bySeq = new Map<number, SessionNotification>();
  for (const line of readFileSync(FIXTURE, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as Recorded;
    if (record.dir === 'in' && record.msg.method === 'session/update' && record.msg.params) bySeq.set(record.seq, record.msg.params);
  }
  return bySeq;
}

export interface UpdateMix {
  readonly sessionId: string;
  /** One JSON-RPC notification per line, as an agent writes them on stdout. */
  readonly lines: readonly string[];
  /** The same notifications' `update`s, parsed (for the in-process measurements). */
  readonly updates: readonly SessionUpdate[];
  /** How many of each `sessionUpdate` variant (plus `terminal_output` chunks) the stream holds. */
  readonly census: Readonly<Record<string, number>>;
  readonly toolCalls: number;
  readonly bytes: number;
}

/** `count` notifications (whole cycles, cut at `count`). */
export function updateMix(count: number): UpdateMix {
  const bySeq = fixtureUpdates();
  const template = (seq: number): string => {
    const notification = bySeq.get(seq);
    if (!notification) throw new Error(`fixture has no session/update with seq ${seq}`);
    return JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: notification });
  };
  const templates = new Map<number, string>(CYCLE.filter((s): s is number => typeof s === 'number').map((s) => [s, template(s)]));
  const outputTemplate = template(49);
  const sessionId = bySeq.get(13)?.sessionId ?? 'session';

  const lines: string[] = [];
  const census: Record<string, number> = {};
  let toolCalls = 0;
  for (let cycle = 0; lines.length < count; cycle++) {
    let chunk = 0;
    for (const step of CYCLE) {
      if (lines.length >= count) break;
      let line = step === 'output' ? outputTemplate.replace('Exit code 3\\na\\nb', `chunk ${chunk++} of cycle ${cycle}\\n`.repeat(4)) : templates.get(step)!;
      for (const id of FIXTURE_IDS) line = line.replaceAll(id, `${id}_${cycle}`);
      lines.push(line);
      const update = (JSON.parse(line) as { params: SessionNotification }).params.update;
      const variant = step === 'output' ? 'tool_call_update (_meta.terminal_output)' : update.sessionUpdate;
      census[variant] = (census[variant] ?? 0) + 1;
      if (update.sessionUpdate === 'tool_call') toolCalls++;
    }
  }
  const updates = lines.map((line) => (JSON.parse(line) as { params: SessionNotification }).params.update);
  const bytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  return { sessionId, lines, updates, census, toolCalls, bytes };
}
