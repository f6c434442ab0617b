/** The event-sourced session log: validated appends, faithful replay, damage limited to one line. */
import * as assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { Projector } from '../../../src/agent/projector';
import { parsedSessionEvent, readSessionEvent, sessionEvent, type SessionEvent } from '../../../src/agent/sessionEvents';
import { toolNamed } from '../../../src/agent/tools';
import { callToAcp, resultToAcp } from '../../../src/agent/bridge';
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

  it('reads back exactly the lines an append would accept: the others are reported, line by line', () => {
    const file = write();
    const damaged = [
      // A call without arguments, with undefined-free but wrong-typed fields, a bad enum: invalid.
      '{"type":"tool_call","toolCallId":"c2","tool":"read"}',
      '{"type":"tool_result","toolCallId":"c1","isError":"no","text":"x"}',
      '{"type":"plan","entries":[{"content":"x","priority":"urgent","status":"pending"}]}',
      '{"type":"agent_message"}',
      // Valid: null arguments, nested JSON meta, unknown keys (stripped, as on append).
      '{"type":"tool_call","toolCallId":"c3","tool":"read","args":null,"extra":1}',
      '{"type":"tool_result","toolCallId":"c3","isError":true,"text":"t","meta":{"a":[1,{"b":null}],"c":"d"}}',
    ];
    appendFileSync(file, `${damaged.join('\n')}\n`);
    const opened = SessionLog.open(stateDir, 's1');
    opened?.log.close();
    const expected = damaged.flatMap((line) => {
      const strict = sessionEvent.safeParse(JSON.parse(line));
      return strict.success ? [strict.data] : [];
    });
    assert.equal(expected.length, 2, 'the append schema accepts the last two lines only');
    assert.deepEqual(opened?.loaded.events.slice(1 + EVENTS.length), expected);
    assert.deepEqual(
      opened?.loaded.warnings.map((w) => w.replace(/^.*:(\d+): /, '$1: ')),
      ['7: skipped a corrupt line', '8: skipped a corrupt line', '9: skipped a corrupt line', '10: skipped a corrupt line'],
    );
    for (const line of damaged) {
      const strict = sessionEvent.safeParse(JSON.parse(line));
      const read = parsedSessionEvent.safeParse(JSON.parse(line));
      assert.equal(read.success, strict.success, line);
      assert.deepEqual(read.data, strict.data, line);
    }
  });

  it('checks a line read back exactly as the schema does: every field missing, mistyped or extra', () => {
    const valid: unknown[] = [
      { type: 'session', version: 1, sessionId: 's', cwd: '/p', createdAt: 'now' },
      { type: 'user_message', content: [{ type: 'text', text: 'hi' }, { type: 'resource_link', uri: 'file:///a', name: 'a' }] },
      { type: 'agent_message', text: 'a' },
      { type: 'agent_thought', text: 't' },
      { type: 'tool_call', toolCallId: 'c', tool: 'read', args: { path: '/p/a' } },
      { type: 'tool_result', toolCallId: 'c', isError: false, text: 'ok', meta: { diffs: [] } },
      { type: 'tool_result', toolCallId: 'c', isError: true, text: 'no' },
      { type: 'plan', entries: [{ content: 'x', priority: 'high', status: 'in_progress' }] },
      { type: 'mode', modeId: 'code' },
    ];
    const variants: unknown[] = [null, 1, 'x', [], { type: 'unknown' }, {}];
    for (const event of valid as Record<string, unknown>[]) {
      variants.push(event, { ...event, extra: true });
      for (const key of Object.keys(event)) {
        const { [key]: _dropped, ...without } = event;
        variants.push(without);
        for (const wrong of [null, 0, 'x', true, [], {}, [{}]]) variants.push({ ...event, [key]: wrong });
      }
    }
    variants.push(
      { type: 'user_message', content: [{ text: 'no type' }] },
      { type: 'plan', entries: [{ content: 'x', priority: 'high', status: 'done' }] },
      { type: 'plan', entries: [{ content: 'x', priority: 'high', status: 'pending', extra: 1 }] },
      { type: 'session', version: 2, sessionId: 's', cwd: '/p', createdAt: 'now' },
    );
    for (const variant of variants) {
      const expected = sessionEvent.safeParse(variant);
      assert.deepEqual(readSessionEvent(variant), expected.success ? expected.data : undefined, JSON.stringify(variant));
    }
  });

  it('replays each call through its tool once parsed, the same updates as presenting call and result apart', () => {
    const cwd = '/p';
    const events: SessionEvent[] = [
      { type: 'tool_call', toolCallId: 'e', tool: 'edit', args: { path: '/p/src/a.ts', old_string: 'a', new_string: 'b' } },
      { type: 'tool_call', toolCallId: 'r', tool: 'read', args: { path: '/p/src/a.ts', line: 3, limit: 2 } },
      { type: 'tool_call', toolCallId: 'b', tool: 'bash', args: { command: 'npm test', cwd: '/p' } },
      { type: 'tool_call', toolCallId: 'x', tool: 'read', args: { line: 'not a path' } },
      { type: 'tool_result', toolCallId: 'r', isError: false, text: '3\tc\n4\td' },
      { type: 'tool_result', toolCallId: 'e', isError: false, text: 'ok', meta: { diffs: [{ path: '/p/src/a.ts', oldText: 'a', newText: 'b' }], locations: [{ path: '/p/src/a.ts', line: 1 }] } },
      { type: 'tool_result', toolCallId: 'b', isError: false, text: 'ok', meta: { output: 'passing\n', exitCode: 0 } },
      { type: 'tool_result', toolCallId: 'x', isError: true, text: 'bad arguments' },
    ];
    for (const terminalOutput of [true, false]) {
      const ctx = { cwd, terminalOutput };
      const projector = new Projector(ctx);
      const replayed = events.flatMap((e) => projector.project(e));
      const args = new Map(events.flatMap((e) => (e.type === 'tool_call' ? [[e.toolCallId, e] as const] : [])));
      const apart = events.flatMap((e): SessionUpdate[] => {
        if (e.type === 'tool_call') {
          if (e.toolCallId === 'x') return [callToAcp('x', { card: 'generic', title: 'read (arguments not understood)', kind: 'other', rawInput: e.args }, ctx)];
          return [callToAcp(e.toolCallId, toolNamed(e.tool)!.presentCall(e.args), ctx)];
        }
        if (e.type !== 'tool_result') return [];
        const call = args.get(e.toolCallId)!;
        const view = e.toolCallId === 'x' ? { card: 'generic' as const, content: [{ type: 'text' as const, text: e.text }] } : toolNamed(call.tool)!.presentResult(call.args, e, e.meta);
        return resultToAcp(e.toolCallId, view, e.isError ? 'failed' : 'completed', ctx, { outputStreamed: false });
      });
      assert.deepEqual(replayed, apart);
      assert.deepEqual(
        replayed.map((u) => [u.sessionUpdate, 'toolCallId' in u ? u.toolCallId : '']),
        [['tool_call', 'e'], ['tool_call', 'r'], ['tool_call', 'b'], ['tool_call', 'x'], ['tool_call_update', 'r'], ['tool_call_update', 'e'], ...(terminalOutput ? [['tool_call_update', 'b']] : []), ['tool_call_update', 'b'], ['tool_call_update', 'x']],
      );
      const titles = replayed.flatMap((u) => (u.sessionUpdate === 'tool_call' ? [u.title] : []));
      assert.deepEqual(titles, ['Edit src/a.ts', 'Read src/a.ts (lines 3–4)', 'npm test', 'read (arguments not understood)']);
    }
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
