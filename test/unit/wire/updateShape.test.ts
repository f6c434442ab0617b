import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { removeSdkSessionRouter } from '../../../src/extension/wire/agentConnection';
import { SessionState } from '../../../src/extension/session/model/sessionState';
import { checkSessionNotification, isUnknownUpdateKind } from '../../../src/extension/wire/updateShape';
import { updateMix } from '../../../harness/agents/lib/updateMix';

const SESSION = 'sess-1';
/** A real turn of Claude's ACP adapter (see test/fixtures/acp/README.md). */
const FIXTURE = join(__dirname, '../../fixtures/acp/claude-agent-acp-turn.jsonl');

function fixtureNotifications(): unknown[] {
  return readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as { dir: string; msg: { method?: string; params?: unknown } })
    .filter((r) => r.dir === 'in' && r.msg.method === 'session/update')
    .map((r) => r.msg.params);
}

const text = { type: 'text', text: 'hello' };
/** Valid forms of every kind the fixture does not show, and the rarer forms of those it does. */
const handWritten: Record<string, unknown>[] = [
  { sessionUpdate: 'user_message_chunk', content: text },
  { sessionUpdate: 'agent_message_chunk', content: text, messageId: 'm1' },
  { sessionUpdate: 'agent_message_chunk', content: text, messageId: null },
  { sessionUpdate: 'agent_thought_chunk', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
  { sessionUpdate: 'agent_message_chunk', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } },
  { sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' } },
  { sessionUpdate: 'agent_message_chunk', content: { type: 'resource', resource: { uri: 'file:///a.txt', text: 'a' } } },
  { sessionUpdate: 'agent_message_chunk', content: { type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AA==' } } },
  { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read a' },
  {
    sessionUpdate: 'tool_call',
    toolCallId: 't2',
    title: 'Edit a',
    name: 'Edit',
    kind: 'edit',
    status: 'in_progress',
    content: [{ type: 'diff', path: '/p/a', oldText: null, newText: 'x' }, { type: 'content', content: text }, { type: 'terminal', terminalId: 'term' }],
    locations: [{ path: '/p/a', line: 3 }],
    rawInput: { a: 1 },
    rawOutput: 'out',
    _meta: { anything: true },
  },
  { sessionUpdate: 'tool_call_update', toolCallId: 't1' },
  { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: null, name: null, kind: null, status: null, content: null, locations: null },
  { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', kind: 'switch_mode', content: [], locations: [] },
  { sessionUpdate: 'plan', entries: [] },
  { sessionUpdate: 'plan', entries: [{ content: 'Step', priority: 'high', status: 'pending' }, { content: 'Two', priority: 'low', status: 'completed' }] },
  { sessionUpdate: 'available_commands_update', availableCommands: [] },
  { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'plan', description: 'Plan', input: { hint: 'what' } }, { name: 'x', description: '', input: null }] },
  { sessionUpdate: 'current_mode_update', currentModeId: 'ask' },
  { sessionUpdate: 'config_option_update', configOptions: [] },
  {
    sessionUpdate: 'config_option_update',
    configOptions: [
      { id: 'model', name: 'Model', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B', description: 'bee' }], category: 'model' },
      { id: 'grouped', name: 'G', type: 'select', currentValue: 'a', options: [{ group: 'g1', name: 'Group', options: [{ value: 'a', name: 'A' }] }] },
      { id: 'fast', name: 'Fast', type: 'boolean', currentValue: true, description: null },
    ],
  },
  { sessionUpdate: 'session_info_update' },
  { sessionUpdate: 'session_info_update', title: 'T', updatedAt: '2026-01-01T00:00:00Z' },
  { sessionUpdate: 'session_info_update', title: null, updatedAt: null },
  { sessionUpdate: 'usage_update', used: 10, size: 100 },
  { sessionUpdate: 'usage_update', used: 0, size: 0, cost: { amount: 0.5, currency: 'USD' } },
  { sessionUpdate: 'usage_update', used: 1, size: 2, cost: null },
  { sessionUpdate: 'notice', severity: 'warning', title: 'Careful' },
  { sessionUpdate: 'notice', severity: 'custom', title: 'X', description: 'more' },
  { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' },
  { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [text], error: null, _meta: { x: 1 } },
  { sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'failed', summary: null, error: 'too small' },
  { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: text },
];

function wrap(update: unknown, sessionId: unknown = SESSION): unknown {
  return { sessionId, update };
}

const corpus: { name: string; params: unknown }[] = [
  ...fixtureNotifications().map((params, i) => ({ name: `fixture #${i}`, params })),
  ...updateMix(700).lines.map((line, i) => ({ name: `updateMix #${i}`, params: (JSON.parse(line) as { params: unknown }).params })),
  ...handWritten.map((update, i) => ({ name: `hand-written #${i} (${String(update.sessionUpdate)})`, params: wrap(update) })),
];

/** [description, update, field the message must name]. Each breaks one read field. */
const base = {
  tool_call: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Read', kind: 'read', status: 'pending', content: [], locations: [] },
  tool_call_update: { sessionUpdate: 'tool_call_update', toolCallId: 't1', title: 'Read', kind: 'read', status: 'pending', content: [], locations: [] },
  chunk: { sessionUpdate: 'agent_message_chunk', content: text },
  plan: { sessionUpdate: 'plan', entries: [{ content: 'Step', priority: 'high', status: 'pending' }] },
  commands: { sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'a', description: 'b', input: { hint: 'h' } }] },
  config: {
    sessionUpdate: 'config_option_update',
    configOptions: [{ id: 'm', name: 'M', type: 'select', currentValue: 'a', options: [{ value: 'a', name: 'A' }] }],
  },
  usage: { sessionUpdate: 'usage_update', used: 1, size: 2, cost: { amount: 1, currency: 'USD' } },
  notice: { sessionUpdate: 'notice', severity: 'info', title: 'T', description: 'd' },
  compaction: { sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', summary: [text], error: 'e' },
  summaryChunk: { sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text },
};
const with_ = <T extends object>(o: T, patch: Record<string, unknown>) => ({ ...o, ...patch });
const without = <T extends object>(o: T, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
const config = (option: Record<string, unknown>) => ({ sessionUpdate: 'config_option_update', configOptions: [{ ...base.config.configOptions[0], ...option }] });

const mutated: [string, unknown, string][] = [
  ['params not an object', null, 'params'],
  ['sessionId missing', { update: base.chunk }, 'sessionId'],
  ['sessionId a number', wrap(base.chunk, 7), 'sessionId'],
  ['update null', wrap(null), 'update'],
  ['sessionUpdate missing', wrap(without(base.chunk, 'sessionUpdate')), 'update.sessionUpdate'],
  ['sessionUpdate a number', wrap(with_(base.chunk, { sessionUpdate: 3 })), 'update.sessionUpdate'],
  ['chunk content missing', wrap(without(base.chunk, 'content')), 'content'],
  ['chunk content null', wrap(with_(base.chunk, { content: null })), 'content'],
  ['chunk content a string', wrap(with_(base.chunk, { content: 'hi' })), 'content'],
  ['chunk text a number', wrap(with_(base.chunk, { content: { type: 'text', text: 5 } })), 'content.text'],
  ['chunk text missing', wrap(with_(base.chunk, { content: { type: 'text' } })), 'content.text'],
  ['chunk block type unknown', wrap(with_(base.chunk, { content: { type: 'video', text: 'x' } })), 'content.type'],
  ['image without data', wrap(with_(base.chunk, { content: { type: 'image', mimeType: 'image/png' } })), 'content.data'],
  ['resource_link uri a number', wrap(with_(base.chunk, { content: { type: 'resource_link', uri: 1, name: 'a' } })), 'content.uri'],
  ['resource without text or blob', wrap(with_(base.chunk, { content: { type: 'resource', resource: { uri: 'u' } } })), 'content.resource.text'],
  ['messageId a number', wrap(with_(base.chunk, { messageId: 5 })), 'messageId'],
  ...(['tool_call', 'tool_call_update'] as const).flatMap((kind): [string, unknown, string][] => [
    [`${kind} toolCallId missing`, wrap(without(base[kind], 'toolCallId')), 'toolCallId'],
    [`${kind} toolCallId null`, wrap(with_(base[kind], { toolCallId: null })), 'toolCallId'],
    [`${kind} toolCallId a number`, wrap(with_(base[kind], { toolCallId: 1 })), 'toolCallId'],
    [`${kind} title a number`, wrap(with_(base[kind], { title: 1 })), 'title'],
    [`${kind} name an object`, wrap(with_(base[kind], { name: {} })), 'name'],
    [`${kind} kind a number`, wrap(with_(base[kind], { kind: 2 })), 'kind'],
    [`${kind} status an object`, wrap(with_(base[kind], { status: {} })), 'status'],
    [`${kind} content an object`, wrap(with_(base[kind], { content: { type: 'diff' } })), 'content'],
    [`${kind} locations a string`, wrap(with_(base[kind], { locations: '/p/a' })), 'locations'],
  ]),
  ['tool_call title missing', wrap(without(base.tool_call, 'title')), 'title'],
  ['tool_call title null', wrap(with_(base.tool_call, { title: null })), 'title'],
  ['plan entries missing', wrap({ sessionUpdate: 'plan' }), 'entries'],
  ['plan entries null', wrap({ sessionUpdate: 'plan', entries: null }), 'entries'],
  ['plan entry a string', wrap({ sessionUpdate: 'plan', entries: ['x'] }), 'entries[0]'],
  ['plan entry content a number', wrap({ sessionUpdate: 'plan', entries: [{ content: 1, priority: 'high', status: 'pending' }] }), 'entries[0].content'],
  ['plan entry priority unknown', wrap({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'urgent', status: 'pending' }] }), 'entries[0].priority'],
  ['plan entry status missing', wrap({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high' }] }), 'entries[0].status'],
  ['commands missing', wrap({ sessionUpdate: 'available_commands_update' }), 'availableCommands'],
  ['command name missing', wrap({ sessionUpdate: 'available_commands_update', availableCommands: [{ description: 'b' }] }), 'availableCommands[0].name'],
  ['command description null', wrap({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'a', description: null }] }), 'availableCommands[0].description'],
  ['command input hint a number', wrap({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'a', description: 'b', input: { hint: 1 } }] }), 'availableCommands[0].input'],
  ['current mode id missing', wrap({ sessionUpdate: 'current_mode_update' }), 'currentModeId'],
  ['current mode id null', wrap({ sessionUpdate: 'current_mode_update', currentModeId: null }), 'currentModeId'],
  ['config options not an array', wrap({ sessionUpdate: 'config_option_update', configOptions: {} }), 'configOptions'],
  ['config option id missing', wrap(config({ id: undefined })), 'configOptions[0].id'],
  ['config option type unknown', wrap(config({ type: 'slider' })), 'configOptions[0].type'],
  ['config select value a number', wrap(config({ currentValue: 3 })), 'configOptions[0].currentValue'],
  ['config select options missing', wrap(config({ options: undefined })), 'configOptions[0].options'],
  ['config select option name missing', wrap(config({ options: [{ value: 'a' }] })), 'configOptions[0].options[0].name'],
  ['config group options missing', wrap(config({ options: [{ group: 'g', name: 'G' }] })), 'configOptions[0].options[0].options'],
  ['config boolean value a string', wrap(config({ type: 'boolean', currentValue: 'yes' })), 'configOptions[0].currentValue'],
  ['session info title a number', wrap({ sessionUpdate: 'session_info_update', title: 1 }), 'title'],
  ['session info updatedAt an object', wrap({ sessionUpdate: 'session_info_update', updatedAt: {} }), 'updatedAt'],
  ['usage used missing', wrap(without(base.usage, 'used')), 'used'],
  ['usage size a string', wrap(with_(base.usage, { size: '2' })), 'size'],
  ['usage used negative', wrap(with_(base.usage, { used: -1 })), 'used'],
  ['usage cost a number', wrap(with_(base.usage, { cost: 3 })), 'cost'],
  ['usage cost amount a string', wrap(with_(base.usage, { cost: { amount: '1', currency: 'USD' } })), 'cost.amount'],
  ['usage cost currency missing', wrap(with_(base.usage, { cost: { amount: 1 } })), 'cost.currency'],
  ['notice severity missing', wrap(without(base.notice, 'severity')), 'severity'],
  ['notice title empty', wrap(with_(base.notice, { title: '' })), 'title'],
  ['notice description a number', wrap(with_(base.notice, { description: 1 })), 'description'],
  ['compaction id missing', wrap(without(base.compaction, 'compactionId')), 'compactionId'],
  ['compaction status a number', wrap(with_(base.compaction, { status: 2 })), 'status'],
  ['compaction summary a string', wrap(with_(base.compaction, { summary: 'text' })), 'summary'],
  ['compaction summary block unknown', wrap(with_(base.compaction, { summary: [{ type: 'video' }] })), 'summary[0].type'],
  ['compaction error an object', wrap(with_(base.compaction, { error: {} })), 'error'],
  ['summary chunk id a number', wrap(with_(base.summaryChunk, { compactionId: 1 })), 'compactionId'],
  ['summary chunk content missing', wrap(without(base.summaryChunk, 'content')), 'content'],
];

describe('checkSessionNotification (the session/update validator)', () => {
  it('accepts every update of the recorded Claude turn, the bench mix and the hand-written valid forms', () => {
    assert.ok(corpus.length > 700);
    for (const { name, params } of corpus) {
      const checked = checkSessionNotification(params);
      assert.ok(checked.ok, `${name}: ${checked.ok ? '' : checked.problem.message}`);
      assert.equal(checked.notification, params, 'passes the params through untouched');
    }
  });

  it('covers every kind SessionState reads', () => {
    const kinds = new Set(corpus.map(({ params }) => (params as { update: { sessionUpdate: string } }).update.sessionUpdate));
    for (const kind of [
      'user_message_chunk',
      'agent_message_chunk',
      'agent_thought_chunk',
      'tool_call',
      'tool_call_update',
      'plan',
      'available_commands_update',
      'config_option_update',
      'current_mode_update',
      'session_info_update',
      'usage_update',
      'notice',
      'compaction_update',
      'compaction_summary_chunk',
    ]) {
      assert.ok(kinds.has(kind), kind);
    }
  });

  for (const [description, params, field] of mutated) {
    it(`rejects: ${description}, naming ${field}`, () => {
      const checked = checkSessionNotification(params);
      assert.equal(checked.ok, false, 'must be rejected');
      if (checked.ok) return;
      assert.ok(checked.problem.message.includes(` ${field} must be`), checked.problem.message);
      assert.ok(!/\[\d+\]/.test(checked.problem.kind), `the kind leaves indices out: ${checked.problem.kind}`);
    });
  }

  it('lets unknown kinds through: SessionState ignores them with a warning, the session stays', () => {
    const state = new SessionState({ sessionId: SESSION, cwd: '/p', schedule: () => undefined });
    state.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'kept' } });
    const checked = checkSessionNotification(wrap({ sessionUpdate: 'future_kind', x: 1 }));
    assert.ok(checked.ok);
    assert.equal(isUnknownUpdateKind(checked.notification), true);
    state.applyNotification(checked.notification);
    assert.equal(state.warningCount, 1);
    assert.equal(state.transcript.length, 1);
    for (const kind of ['compaction_update', 'compaction_summary_chunk', 'plan_update', 'plan_removed']) {
      const known = checkSessionNotification(wrap({ sessionUpdate: kind }));
      assert.equal(known.ok, false, `${kind} is read, so it is checked`);
    }
  });

  it('groups problems by update kind and field, without indices (one log line per kind)', () => {
    const a = checkSessionNotification(wrap({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'x' }] }));
    const b = checkSessionNotification(wrap({ sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'high', status: 'pending' }, { content: 'b', priority: 'low', status: 1 }] }));
    assert.ok(!a.ok && !b.ok);
    assert.equal(a.problem.kind, 'plan.entries[].status');
    assert.equal(b.problem.kind, a.problem.kind);
    assert.match(b.problem.message, /session\/update "plan" rejected: entries\[1\]\.status must be one of pending, in_progress, completed, got number 1/);
  });
});

describe("SessionState never throws on what the validator accepts (fuzz)", () => {
  // A seeded generator: the same run every time, so a failure reproduces.
  let seed = 0x2f6b1d;
  const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const maybe = <T>(value: () => T): T | undefined | null => {
    const r = random();
    return r < 0.4 ? value() : r < 0.7 ? undefined : null;
  };
  const anyJson = (): unknown => pick([0, -1, 'x', '', true, null, [], {}, [1, 'a'], { type: 'diff' }, { path: 1 }, { terminal_info: { terminal_id: 't' } }]);
  const block = () =>
    pick<unknown>([
      { type: 'text', text: pick(['', 'a', '```\ncode']) },
      { type: 'image', data: '', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'file:///x', name: 'x' },
      { type: 'resource', resource: { uri: 'u', text: 't' } },
    ]);
  const toolFields = () => ({
    toolCallId: pick(['a', 'b', '', 'c']),
    title: maybe(() => pick(['T', ''])),
    name: maybe(() => 'N'),
    kind: maybe(() => pick(['read', 'edit', 'execute', 'other'])),
    status: maybe(() => pick(['pending', 'in_progress', 'completed', 'failed'])),
    content: maybe(() => [anyJson(), { type: 'diff', path: '/p/a', newText: 'x', oldText: maybe(() => 'y') }, { type: 'terminal', terminalId: 't' }]),
    locations: maybe(() => [anyJson(), { path: '/p/a', line: maybe(() => 2) }]),
    rawInput: maybe(anyJson),
    rawOutput: maybe(anyJson),
    _meta: maybe(() => pick<unknown>([anyJson(), { terminal_output: { terminal_id: 't', data: 'x' } }, { terminal_exit: { terminal_id: 't', exit_code: 1 } }])),
  });
  const generators: (() => Record<string, unknown>)[] = [
    () => ({ sessionUpdate: pick(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk']), content: block(), messageId: maybe(() => pick(['m1', 'm2'])) }),
    () => ({ sessionUpdate: 'tool_call', ...toolFields(), title: pick(['T', '']) }),
    () => ({ sessionUpdate: 'tool_call_update', ...toolFields() }),
    () => ({ sessionUpdate: 'plan', entries: random() < 0.5 ? [] : [{ content: 'a', priority: 'medium', status: 'in_progress', _meta: maybe(anyJson) }] }),
    () => ({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'a', description: 'b', input: maybe(() => ({ hint: 'h' })) }] }),
    () => ({ sessionUpdate: 'current_mode_update', currentModeId: pick(['a', 'b']) }),
    () => ({ sessionUpdate: 'config_option_update', configOptions: [{ id: 'x', name: 'X', type: 'boolean', currentValue: random() < 0.5, category: maybe(anyJson) }] }),
    () => ({ sessionUpdate: 'session_info_update', title: maybe(() => 'T'), updatedAt: maybe(() => 'now') }),
    () => ({ sessionUpdate: 'usage_update', used: Math.floor(random() * 10), size: 10, cost: maybe(() => ({ amount: random(), currency: 'USD' })) }),
    () => ({ sessionUpdate: 'notice', severity: pick(['info', 'error', 'odd']), title: 'T', description: maybe(() => 'd') }),
    () => ({ sessionUpdate: pick(['future_kind', 'compaction_summary_chunk']), anything: maybe(anyJson) }),
    () => ({ sessionUpdate: 'compaction_update', compactionId: pick(['c1', 'c2']), status: pick(['in_progress', 'completed', 'odd']), summary: maybe(() => [block()]), error: maybe(() => 'e') }),
    () => ({ sessionUpdate: 'compaction_summary_chunk', compactionId: pick(['c1', 'c3']), content: block() }),
    () => ({ sessionUpdate: 'plan_update', plan: pick<unknown>([{ type: 'markdown', planId: 'p', content: '# P' }, { type: 'file', planId: 'f', uri: 'file:///p/plan.md' }, { type: 'items', planId: 'i', entries: [] }, anyJson()]) }),
    () => ({ sessionUpdate: 'plan_removed', planId: pick(['p', 'f', 'nope']) }),
  ];

  it('applies 3,000 random accepted updates without a throw, and renders nothing it should not', () => {
    const flushes: (() => void)[] = [];
    const state = new SessionState({ sessionId: SESSION, cwd: '/p', schedule: (flush) => flushes.push(flush) });
    let changes = 0;
    state.onDidChange(() => changes++);
    let accepted = 0;
    for (let i = 0; i < 3000; i++) {
      const update = pick(generators)();
      // Absent optional fields as absent keys, not `undefined` values, as they come off the wire.
      const params = JSON.parse(JSON.stringify(wrap(update))) as unknown;
      const checked = checkSessionNotification(params);
      if (!checked.ok) continue;
      accepted++;
      // SessionState.apply catches its own throws and turns them into "skipped" warnings: a
      // throw inside would show as such a warning, so none may appear.
      state.applyNotification(checked.notification);
      assert.ok(!state.warnings.some((w) => w.includes('skipped')), state.warnings.join('\n'));
      if (random() < 0.1) for (const flush of flushes.splice(0)) flush();
    }
    for (const flush of flushes.splice(0)) flush();
    assert.ok(changes > 0);
    assert.ok(accepted > 2000, `accepted ${accepted}`);
    for (const call of state.toolCalls()) {
      assert.equal(typeof call.title, 'string');
      assert.ok(['pending', 'in_progress', 'completed', 'failed'].includes(call.status), call.status);
      assert.ok(call.content.every((item) => ['diff', 'content', 'terminal'].includes(item.type)));
    }
  });
});

/** Feeds notifications to a client app over a real ndjson stream; resolves with what reached the handler. */
async function dispatch(app: acp.ClientApp, lines: readonly string[], received: unknown[], expect: number): Promise<void> {
  const bytes = new TextEncoder().encode(lines.map((l) => `${l}\n`).join(''));
  const input = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(bytes) });
  const connection = app.connect(acp.ndJsonStream(new WritableStream<Uint8Array>(), input));
  // Notifications are dispatched in order: a sentinel after the lines says all were handled.
  const deadline = Date.now() + 5000;
  while (received.length < expect && Date.now() < deadline) await new Promise((r) => setImmediate(r));
  connection.close();
}

const line = (params: unknown) => JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params });

describe("the SDK's session router (pinned: an SDK upgrade that moves it fails here)", () => {
  it('is found in a fresh ClientApp and removed', () => {
    const app = acp.client({ name: 'test' });
    assert.equal(removeSdkSessionRouter(app), true, "the SDK's ClientApp no longer installs 'client-session-update-router' in builder.handlers");
    assert.equal(removeSdkSessionRouter(app), false, 'removed once, gone after');
  });

  it('when removed, the SDK no longer validates session/update before our own handler', async () => {
    // An update kind newer than the SDK: its zod schema rejects it, our raw handler takes it.
    const future = line(wrap({ sessionUpdate: 'future_kind' }));
    const sentinel = line(wrap({ sessionUpdate: 'agent_message_chunk', content: text }));
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const withRouter: unknown[] = [];
      const routed = acp.client({ name: 'with' }).onNotification(acp.methods.client.session.update, (p: unknown) => p, ({ params }) => void withRouter.push(params));
      await dispatch(routed, [future, sentinel], withRouter, 1);
      assert.equal(withRouter.length, 1, 'with the router, the SDK drops the update its schema rejects');
      assert.equal(errors.length, 1);

      const withoutRouter: unknown[] = [];
      const direct = acp.client({ name: 'without' }).onNotification(acp.methods.client.session.update, (p: unknown) => p, ({ params }) => void withoutRouter.push(params));
      assert.ok(removeSdkSessionRouter(direct));
      await dispatch(direct, [future, sentinel], withoutRouter, 2);
      assert.equal(withoutRouter.length, 2, 'without it, every update reaches our handler');
      assert.equal(errors.length, 1);
    } finally {
      console.error = original;
    }
  });

  it("agrees with the SDK's own zod schema on the whole corpus (via its default session/update parser)", async () => {
    // The schema is not in the package's exports; its default parser for session/update is.
    const received: unknown[] = [];
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const app = acp.client({ name: 'zod' }).onNotification(acp.methods.client.session.update, ({ params }) => void received.push(params));
      removeSdkSessionRouter(app);
      await dispatch(app, corpus.map(({ params }) => line(params)), received, corpus.length);
    } finally {
      console.error = original;
    }
    assert.deepEqual(errors, [], 'the SDK rejected part of the corpus');
    assert.equal(received.length, corpus.length);
  });
});

describe('checkSessionNotification: values newer than this client', () => {
  for (const kind of ['tool_call', 'tool_call_update'] as const) {
    it(`${kind}: an unknown kind and status are dropped, the update kept and the values named`, () => {
      const params = wrap(with_(base[kind], { kind: 'teleport', status: 'done' })) as { update: Record<string, unknown> };
      const checked = checkSessionNotification(params);
      assert.ok(checked.ok, checked.ok ? '' : checked.problem.message);
      assert.deepEqual(checked.newerValues, [`${kind}.kind "teleport"`, `${kind}.status "done"`]);
      assert.equal('kind' in params.update, false);
      assert.equal('status' in params.update, false);
      assert.equal(params.update.toolCallId, (base[kind] as { toolCallId: string }).toolCallId);
    });
  }

  it('a known kind and status pass untouched and name nothing', () => {
    const checked = checkSessionNotification(wrap(with_(base.tool_call, { kind: 'fetch', status: 'failed' })));
    assert.ok(checked.ok);
    assert.equal(checked.newerValues, undefined);
    assert.equal((checked.notification.update as { kind?: string }).kind, 'fetch');
  });
});
