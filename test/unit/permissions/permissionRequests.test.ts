import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { PermissionRequests, permissionTitle, questionDiffs, unanswerableReason } from '../../../src/extension/permissions/model/permissionRequests';
import { RestartThrottle } from '../../../src/extension/agents/model/restartThrottle';

const options: acp.PermissionOption[] = [
  { optionId: 'a1', name: 'Allow', kind: 'allow_once' },
  { optionId: 'a2', name: 'Always', kind: 'allow_always' },
  { optionId: 'r1', name: 'Reject', kind: 'reject_once' },
  { optionId: 'r2', name: 'Never', kind: 'reject_always' },
];
const edit: acp.ToolCallUpdate = { toolCallId: 't1', title: 'Edit a.ts', kind: 'edit' };

describe('permission questions', () => {
  it('takes the first answer; a later click does nothing', async () => {
    const q = new PermissionRequests();
    const { question, answer } = q.ask('s', edit, options);
    assert.ok(question);
    assert.equal(q.answer(question.id, 'a1'), true);
    assert.equal(q.answer(question.id, 'r1'), false);
    assert.deepEqual(await answer, { outcome: 'selected', optionId: 'a1' });
    assert.deepEqual(q.pending(), []);
  });

  it('answers every open question of a cancelled session "cancelled", and only those', async () => {
    const q = new PermissionRequests();
    const a = q.ask('s1', edit, options);
    const b = q.ask('s1', { ...edit, toolCallId: 't2' }, options);
    const other = q.ask('s2', edit, options);
    assert.equal(q.cancelAll('s1'), 2);
    assert.deepEqual(await a.answer, { outcome: 'cancelled' });
    assert.deepEqual(await b.answer, { outcome: 'cancelled' });
    assert.equal(q.pending().length, 1);
    assert.equal(q.answer(other.question!.id, 'r1'), true);
  });

  it('asks every question, after an "always" answer too: the agent remembers it in its own scope', async () => {
    // Codex's "always" for `npm test` allows commands that start with it, not every command.
    const q = new PermissionRequests();
    const first = q.ask('s', { toolCallId: 't1', title: 'Run npm test', kind: 'execute' }, options);
    q.answer(first.question.id, 'a2');
    assert.deepEqual(await first.answer, { outcome: 'selected', optionId: 'a2' });
    const next = q.ask('s', { toolCallId: 't2', title: 'Run rm -rf build', kind: 'execute' }, options);
    assert.deepEqual(q.pending().map((p) => p.id), [next.question.id], 'the next command is asked');
    q.answer(next.question.id, 'r1');
    assert.deepEqual(await next.answer, { outcome: 'selected', optionId: 'r1' });
  });

  it('refuses an option id the question does not have', () => {
    const q = new PermissionRequests();
    const { question } = q.ask('s', edit, options);
    assert.equal(q.answer(question.id, 'exit-plan-clear-auto'), false);
    assert.equal(q.pending().length, 1, 'still open');
  });

  it("reads the edit from the call's card when the question has no diff (Codex), its own otherwise", () => {
    const card: acp.ToolCallContent[] = [{ type: 'diff', path: '/w/a.txt', oldText: 'hello world\n', newText: 'hello ACP\n' }];
    assert.deepEqual(questionDiffs(undefined, card), card, "Codex's question: {title, kind, locations}");
    const own: acp.ToolCallContent[] = [{ type: 'diff', path: '/w/a.txt', oldText: null, newText: 'whole\n' }];
    assert.deepEqual(questionDiffs(own, card), own, 'a question with its own diff is about that one');
    assert.deepEqual(questionDiffs([{ type: 'content', content: { type: 'text', text: 'x' } }], undefined), []);
  });

  it('tells listeners when questions come and go', () => {
    const q = new PermissionRequests();
    let events = 0;
    q.onDidChange(() => events++);
    const { question } = q.ask('s', edit, options);
    q.cancel(question!.id);
    assert.equal(events, 2);
  });
});

describe('restart throttle', () => {
  it('allows three restarts a minute, then says how long to wait', () => {
    let now = 0;
    const t = new RestartThrottle(3, 60_000, () => now);
    assert.ok(t.tryRestart().ok);
    now = 1000;
    assert.ok(t.tryRestart().ok);
    assert.ok(t.tryRestart().ok);
    const refused = t.tryRestart();
    assert.deepEqual(refused, { ok: false, retryInMs: 59_000 });
    now = 60_001;
    assert.ok(t.tryRestart().ok);
  });
});

describe('permission question titles and shapes', () => {
  const ctx = { folders: [{ name: 'proj', path: '/ws/proj' }], home: '/home/me', sep: '/' as const };

  it('titles a question by its call, with the paths relative to the workspace', () => {
    const call: acp.ToolCallUpdate = {
      toolCallId: 't',
      title: 'Edit /ws/proj/src/a.ts',
      content: [{ type: 'diff', path: '/ws/proj/src/a.ts', oldText: 'a', newText: 'b' }],
    };
    assert.equal(permissionTitle(call, ctx), 'Edit src/a.ts');
    assert.equal(permissionTitle({ toolCallId: 't', title: 'Read /ws/proj/README.md', locations: [{ path: '/ws/proj/README.md' }] }, ctx), 'Read README.md');
    assert.equal(permissionTitle({ toolCallId: 't' }, ctx), 'use a tool');
  });

  it('calls a request without options (or without a known kind) unanswerable', () => {
    assert.match(unanswerableReason([]) ?? '', /at least one option/);
    assert.match(unanswerableReason(undefined) ?? '', /at least one option/);
    assert.match(unanswerableReason([{ optionId: 'x', name: 'X', kind: 'maybe' }]) ?? '', /known kind/);
    assert.equal(unanswerableReason(options), undefined);
    assert.equal(unanswerableReason([{ optionId: 'ok', name: 'OK', kind: 'allow_once' }]), undefined);
  });
});
