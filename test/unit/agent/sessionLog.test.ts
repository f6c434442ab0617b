/** The event-sourced session log: validated appends, faithful replay, damage limited to one line. */
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Projector } from '../../../src/agent/projector';
import type { SessionEvent } from '../../../src/agent/sessionEvents';
import { listSessions, SessionLog } from '../../../src/agent/sessionLog';

const EVENTS: SessionEvent[] = [
  { type: 'user_message', content: [{ type: 'text', text: 'please write a.txt' }] },
  { type: 'agent_message', text: 'Writing it.' },
  { type: 'tool_call', toolCallId: 'c1', tool: 'write', args: { path: '/p/a.txt', content: 'A\n' } },
  { type: 'tool_result', toolCallId: 'c1', isError: false, text: 'Created /p/a.txt (1 lines).', meta: { wholeFile: { oldText: null } } },
  { type: 'plan', entries: [{ content: 'write a.txt', priority: 'medium', status: 'completed' }] },
];

describe('session log', () => {
  let stateDir: string;
  beforeEach(() => (stateDir = mkdtempSync(path.join(os.tmpdir(), 'acp-native-log-'))));
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  function write(sessionId = 's1'): string {
    const log = SessionLog.create(stateDir, sessionId, '/p');
    for (const event of EVENTS) log.append(event);
    log.close();
    return log.file;
  }

  it('appends one JSON line per event and reads them back, header first', () => {
    const file = write();
    const opened = SessionLog.open(stateDir, 's1');
    opened?.log.close();
    assert.equal(readFileSync(file, 'utf8').trimEnd().split('\n').length, EVENTS.length + 1);
    assert.equal(opened?.loaded.header.cwd, '/p');
    assert.deepEqual(opened?.loaded.events.slice(1), EVENTS);
    assert.deepEqual(opened?.loaded.warnings, []);
  });

  it('validates at append: an invalid event throws and nothing is written', () => {
    const log = SessionLog.create(stateDir, 's1', '/p');
    const bad = { type: 'tool_result', toolCallId: 'c1', isError: 'no', text: 'x' } as unknown as SessionEvent;
    assert.throws(() => log.append(bad));
    assert.throws(() => log.append({ type: 'tool_call', toolCallId: 'c', tool: 't', args: { f: () => 1 } } as unknown as SessionEvent));
    log.close();
    assert.equal(readFileSync(log.file, 'utf8').trimEnd().split('\n').length, 1);
  });

  it('replays a log into the same updates the live turn sent, with no recomputation', () => {
    write();
    const opened = SessionLog.open(stateDir, 's1');
    opened?.log.close();
    const projector = new Projector({ cwd: '/p', terminalOutput: true });
    const updates = opened?.loaded.events.flatMap((e) => projector.project(e)) ?? [];
    assert.deepEqual(updates.map((u) => u.sessionUpdate), ['user_message_chunk', 'agent_message_chunk', 'tool_call', 'tool_call_update', 'plan']);
    const result = updates[3];
    assert.deepEqual(result?.sessionUpdate === 'tool_call_update' ? result.content : undefined, [
      { type: 'diff', path: '/p/a.txt', oldText: null, newText: 'A\n' },
    ]);
    const call = updates[2];
    assert.equal(call?.sessionUpdate === 'tool_call' ? call.title : '', 'Write a.txt');
  });

  it('skips a torn last line with a warning, keeps everything before, and cuts it before appending', () => {
    const file = write();
    appendFileSync(file, '{"type":"agent_message","te');
    const opened = SessionLog.open(stateDir, 's1');
    assert.deepEqual(opened?.loaded.events.slice(1), EVENTS);
    assert.equal(opened?.loaded.warnings.length, 1);
    assert.match(opened?.loaded.warnings[0] ?? '', /:7: skipped a torn or corrupt last line/);
    opened?.log.append({ type: 'agent_message', text: 'after' });
    opened?.log.close();
    const again = SessionLog.open(stateDir, 's1');
    again?.log.close();
    assert.deepEqual(again?.loaded.warnings, []);
    assert.deepEqual(again?.loaded.events.at(-1), { type: 'agent_message', text: 'after' });
  });

  it('skips a corrupt line in the middle too, and an orphaned result with it', () => {
    const file = write();
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[3] = '{ not json';
    writeFileSync(file, lines.join('\n'));
    const opened = SessionLog.open(stateDir, 's1');
    opened?.log.close();
    assert.equal(opened?.loaded.events.length, EVENTS.length);
    assert.match(opened?.loaded.warnings[0] ?? '', /skipped a corrupt line/);
    const projector = new Projector({ cwd: '/p', terminalOutput: true });
    const updates = opened?.loaded.events.flatMap((e) => projector.project(e)) ?? [];
    assert.ok(!updates.some((u) => u.sessionUpdate === 'tool_call_update'));
  });

  it('fails calls that never got a result when a replay ends', () => {
    const projector = new Projector({ cwd: '/p', terminalOutput: false });
    projector.project({ type: 'tool_call', toolCallId: 'c9', tool: 'bash', args: { command: 'sleep 1' } });
    const [update] = projector.finishInterrupted();
    assert.equal(update?.sessionUpdate === 'tool_call_update' ? update.status : '', 'failed');
  });

  it('lists sessions with their first prompt as title, and refuses unsafe ids', () => {
    write('s1');
    SessionLog.create(stateDir, 's2', '/elsewhere').close();
    assert.deepEqual(
      listSessions(stateDir, '/p').map((s) => [s.sessionId, s.title]),
      [['s1', 'please write a.txt']],
    );
    assert.equal(listSessions(stateDir).length, 2);
    assert.equal(SessionLog.open(stateDir, '../s1'), undefined);
    assert.throws(() => SessionLog.create(stateDir, '../x', '/p'));
  });
});
