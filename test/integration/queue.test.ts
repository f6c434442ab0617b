import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { setSetting, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';
import { reloadActiveSession } from './support/reload';

const STEERING = { name: 'steering', file: 'steeringAgent' };

/** Starts a long turn and resolves once the agent is working on it (its first words arrived). */
async function longTurn(api: AcpNativeApi, ms: number): Promise<{ done: Promise<string> }> {
  const before = api.conversation().length;
  const done = api.prompt(`work ${ms}`);
  done.catch(() => undefined);
  await waitFor('the long turn to start', () => api.conversation().slice(before).some((m) => m.role === 'agent' && m.text.startsWith('Working on it')));
  return { done };
}

const userTexts = (api: AcpNativeApi) => api.conversation().filter((m) => m.role === 'user').map((m) => m.text);
const agentTexts = (api: AcpNativeApi) => api.conversation().filter((m) => m.role === 'agent').map((m) => m.text);

/** What the agent says of the steers it got (its `steers?` prompt). */
async function steersReceived(api: AcpNativeApi): Promise<number> {
  await within('steers?', api.prompt('steers?'));
  const answer = agentTexts(api).at(-1) ?? '';
  return (JSON.parse(answer) as { steers: number }).steers;
}

describe('prompt queue and steering (an agent that serves _session/steering)', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: STEERING }, (started) => (api = started));

  it('queues prompts sent during a turn and sends them in order, each resolving with its own stop reason', async () => {
    const first = await longTurn(api, 600);
    const second = api.prompt('second');
    const third = api.prompt('third');
    assert.deepEqual(api.queue().map((q) => q.text), ['second', 'third']);
    assert.deepEqual(await within('the three turns', Promise.all([first.done, second, third])), ['end_turn', 'end_turn', 'end_turn']);
    assert.deepEqual(api.queue(), []);
    assert.deepEqual(agentTexts(api).slice(-2), ['Received: second', 'Received: third']);
  });

  it('steers a running turn: the text shows as the user message where it went in, the answer follows in the same turn', async () => {
    const turn = await longTurn(api, 10_000);
    const started = performance.now();
    assert.equal(await api.steer('use tabs, not spaces'), 'injected');
    assert.equal(await within('the steered turn', turn.done), 'end_turn');
    assert.ok(performance.now() - started < 5000, 'the steer cut the 10 s turn short');
    const tail = api.conversation().slice(-3);
    assert.equal(tail[0]?.role, 'agent');
    assert.match(tail[0]?.text ?? '', /^Working on it/);
    assert.deepEqual(tail.slice(1), [
      { role: 'user', text: 'use tabs, not spaces' },
      { role: 'agent', text: 'Steered: use tabs, not spaces' },
    ]);
  });

  it('a steer with no turn running is sent as a prompt', async () => {
    assert.equal(await api.steer('nothing runs'), 'sent');
    await waitFor('the answer', () => agentTexts(api).at(-1) === 'Received: nothing runs');
  });

  it('a prompt sent while a new session starts goes to that session, not queued behind the busy one shown', async () => {
    const turn = await longTurn(api, 3000);
    const busy = api.activeSessionId;
    const starting = api.newSession();
    const sent = api.prompt('for the new session');
    const fresh = await within('the new session', starting);
    assert.notEqual(fresh, busy);
    assert.deepEqual(api.queue(busy), [], 'nothing queued behind the running turn');
    assert.equal(await within('the prompt in the new session', sent), 'end_turn');
    assert.deepEqual(userTexts(api), ['for the new session'], 'the new session got it, as its first prompt');
    api.setActiveSession(busy ?? '');
    assert.equal(await within('the long turn', turn.done), 'end_turn');
    assert.ok(!userTexts(api).includes('for the new session'), 'the busy session never saw it');
  });

  it('Send now on a queued prompt steers it into the running turn', async () => {
    const turn = await longTurn(api, 10_000);
    const queued = api.prompt('now please');
    const [item] = api.queue();
    assert.ok(item);
    assert.equal(await api.sendQueuedNow(item.id), 'injected');
    assert.deepEqual(await within('the turn and the steered prompt', Promise.all([turn.done, queued])), ['end_turn', 'end_turn']);
    assert.equal(agentTexts(api).at(-1), 'Steered: now please');
    assert.deepEqual(api.queue(), []);
  });

  it('after a cancel the queue waits (saying why) until Resume; an edited prompt goes as edited', async () => {
    const turn = await longTurn(api, 10_000);
    const queued = api.prompt('after the cancel');
    await api.cancel();
    assert.equal(await within('the cancelled turn', turn.done), 'cancelled');
    await waitFor('the queue to wait', () => api.queueWaiting());
    assert.match(api.queueWaiting() ?? '', /cancelled/);
    const [item] = api.queue();
    assert.ok(item);
    api.editQueued(item.id, 'edited while waiting');
    assert.deepEqual(api.queue().map((q) => q.text), ['edited while waiting']);
    api.resumeQueue();
    assert.equal(await within('the resumed prompt', queued), 'end_turn');
    assert.equal(agentTexts(api).at(-1), 'Received: edited while waiting');
  });

  it('a removed prompt is never sent, and its prompt() rejects', async () => {
    const turn = await longTurn(api, 500);
    const removed = api.prompt('never sent');
    const kept = api.prompt('sent');
    api.removeQueued(api.queue()[0]?.id ?? '');
    await assert.rejects(removed, /removed/);
    await within('the rest', Promise.all([turn.done, kept]));
    assert.ok(!userTexts(api).includes('never sent'));
  });

  it('holds 100 queued prompts (the next is refused with a clear error) and sends them all in order', async () => {
    const turn = await longTurn(api, 1000);
    const queued = Array.from({ length: 100 }, (_, i) => api.prompt(`p${i}`));
    await assert.rejects(api.prompt('one too many'), /100 prompts at most/);
    assert.equal(api.queue().length, 100);
    await within('a hundred queued turns', Promise.all([turn.done, ...queued]), 50_000);
    const answers = agentTexts(api).slice(-100);
    assert.deepEqual(answers, Array.from({ length: 100 }, (_, i) => `Received: p${i}`));
  });

  it('keeps the queue with the session when it is closed and loaded again; it comes back waiting', async () => {
    const turn = await longTurn(api, 10_000);
    void api.prompt('kept 1').catch(() => undefined);
    void api.prompt('kept 2').catch(() => undefined);
    const sessionId = api.activeSessionId;
    await reloadActiveSession(api);
    await turn.done.catch(() => undefined);
    assert.equal(api.activeSessionId, sessionId);
    assert.deepEqual(api.queue().map((q) => q.text), ['kept 1', 'kept 2']);
    assert.ok(api.queueWaiting(), 'a restored queue is not sent by itself');
    api.resumeQueue();
    await waitFor('both kept prompts answered', () => agentTexts(api).slice(-2).join('|') === 'Received: kept 1|Received: kept 2');
  });

  it('forgets a deleted session\'s kept queue: the agent\'s own copy opens again without it', async () => {
    const turn = await longTurn(api, 10_000);
    void api.prompt('deleted with its session').catch(() => undefined);
    const sessionId = api.activeSessionId;
    assert.ok(sessionId, 'a session is active');
    await api.newSession();
    await api.closeSession(sessionId);
    await turn.done.catch(() => undefined);
    // This agent cannot delete sessions (no `session/delete`): it keeps its copy, and loads it.
    await within('delete', api.deleteSession(sessionId));
    await within('session/load', api.loadSession(sessionId));
    assert.equal(api.activeSessionId, sessionId);
    assert.deepEqual(api.queue(), []);
    assert.equal(api.queueWaiting(), undefined);
  });

  it("drops what a closed session's agent still sends, so the session opens again without it", async () => {
    const before = api.conversation().length;
    const done = api.prompt('work-tail 10000');
    done.catch(() => undefined);
    await waitFor('the long turn to start', () => api.conversation().slice(before).some((m) => m.role === 'agent' && m.text.startsWith('Working on it')));
    const sessionId = api.activeSessionId;
    assert.ok(sessionId);
    await api.newSession();
    await api.closeSession(sessionId);
    // The agent's tail of the cancelled turn arrives for a session the editor no longer has.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await within('session/load', api.loadSession(sessionId));
    assert.equal(api.activeSessionId, sessionId);
    // This agent replays nothing on load: what shows is what came after the close, and nothing did.
    assert.deepEqual(api.conversation(sessionId), [], 'no fragment of the closed turn at the top');
  });

  it('keeps the queue when the agent dies mid-turn; Resume restarts the agent and sends it', async () => {
    const dying = api.prompt('die');
    await waitFor('the agent to start its last turn', () => agentTexts(api).at(-1) === 'About to fall over');
    const queued = api.prompt('after the crash');
    await assert.rejects(within('the dying turn', dying), /exited with code 3/);
    await waitFor('the queue to wait', () => api.queueWaiting());
    assert.match(api.queueWaiting() ?? '', /failed/);
    assert.deepEqual(api.queue().map((q) => q.text), ['after the crash']);
    api.resumeQueue();
    assert.equal(await within('the prompt after the restart', queued), 'end_turn');
    assert.equal(agentTexts(api).at(-1), 'Received: after the crash');
  });
});

describe('prompt queue when the agent cannot be restarted', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  const marker = join(mkdtempSync(join(tmpdir(), 'acp-start-once-')), 'started');
  agentSuite({ agent: { ...STEERING, name: 'start-once', args: ['--start-once', marker] } }, (started) => (api = started));

  it('keeps every queued prompt, in order and waiting, when Resume cannot restart the agent', async () => {
    const dying = api.prompt('die');
    await waitFor('the agent to start its last turn', () => agentTexts(api).at(-1) === 'About to fall over');
    void api.prompt('first after the crash').catch(() => undefined);
    void api.prompt('second after the crash').catch(() => undefined);
    await assert.rejects(within('the dying turn', dying), /exited with code 3/);
    await waitFor('the queue to wait', () => api.queueWaiting());
    api.resumeQueue();
    // The restart fails (the agent exits at start): nothing was sent, so nothing is lost.
    await waitFor('the queue to wait again, for the failed restart', () => /Not sent/.test(api.queueWaiting() ?? '') || undefined);
    assert.deepEqual(api.queue().map((q) => q.text), ['first after the crash', 'second after the crash']);
    assert.equal(agentTexts(api).at(-1), 'About to fall over', 'the agent got neither');
  });
});

describe('prompt queue without steering (an agent that does not advertise it)', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: { ...STEERING, name: 'no-steering', args: ['--no-steering'] } }, (started) => (api = started));

  it('a steer during a turn is queued, and Send now cancels the turn and sends it', async () => {
    const turn = await longTurn(api, 10_000);
    assert.equal(await api.steer('queued instead'), 'queued');
    const [item] = api.queue();
    assert.ok(item);
    assert.equal(await api.sendQueuedNow(item.id), 'sent');
    assert.equal(await within('the cancelled turn', turn.done), 'cancelled');
    await waitFor('the prompt sent after the cancel', () => agentTexts(api).at(-1) === 'Received: queued instead');
    assert.equal(api.queueWaiting(), undefined);
    assert.equal(await steersReceived(api), 0, 'no _session/steering was sent');
  });
});

describe('steering never sent when _meta.steering is malformed', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: { ...STEERING, name: 'odd-steering', args: ['--steering-meta', '{"steering":{"supported":"true"}}'] } }, (started) => (api = started));

  it('queues instead, and the agent gets no steer', async () => {
    const turn = await longTurn(api, 400);
    assert.equal(await api.steer('not a steer'), 'queued');
    await within('the turn', turn.done);
    await waitFor('the queued prompt answered', () => agentTexts(api).at(-1) === 'Received: not a steer');
    assert.equal(await steersReceived(api), 0);
  });
});

describe('a steer the agent answers with an error, or never answers', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: { ...STEERING, name: 'failing-steering', args: ['--steer-fail', 'error'] } }, (started) => (api = started));

  it('goes to the queue with the reason; the turn goes on and the prompt follows it', async () => {
    const turn = await longTurn(api, 1500);
    assert.equal(await api.steer('refused steer'), 'queued');
    assert.match(api.queue()[0]?.note ?? '', /Not steered: .*broken/);
    assert.equal(await within('the turn', turn.done), 'end_turn');
    await waitFor('the queued prompt answered', () => agentTexts(api).at(-1) === 'Received: refused steer');
  });
});

describe('a steer the agent never answers', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: { ...STEERING, name: 'silent-steering', args: ['--steer-fail', 'silent'] } }, (started) => (api = started));

  it('waits a bounded time, then queues it; the turn was never blocked', async () => {
    const turn = await longTurn(api, 6000);
    const started = performance.now();
    const before = agentTexts(api).at(-1)?.length ?? 0;
    assert.equal(await api.steer('unanswered'), 'queued');
    const waited = performance.now() - started;
    assert.ok(waited >= 2500 && waited < 5000, `waited ${waited.toFixed(0)} ms`);
    assert.ok((agentTexts(api).at(-1)?.length ?? 0) > before, 'the turn kept streaming meanwhile');
    assert.match(api.queue()[0]?.note ?? '', /did not answer/);
    assert.equal(await within('the turn', turn.done), 'end_turn');
    await waitFor('the queued prompt answered', () => agentTexts(api).at(-1) === 'Received: unanswered');
  });
});

describe('a steer the agent takes after the client stopped waiting', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: { ...STEERING, name: 'late-steering', args: ['--steer-fail', 'late'] } }, (started) => (api = started));

  it('takes the queued copy back once the agent took it, so it is not sent twice, and shows it', async () => {
    const turn = await longTurn(api, 10_000);
    assert.equal(await api.steer('taken late'), 'queued');
    assert.match(api.queue()[0]?.note ?? '', /did not answer/);
    assert.equal(await within('the steered turn', turn.done), 'end_turn');
    assert.ok(agentTexts(api).some((t) => t.includes('Steered: taken late')), 'the agent took it in its turn');
    await waitFor('the queued copy to go', () => api.queue().length === 0 || undefined);
    assert.deepEqual(userTexts(api).filter((t) => t === 'taken late'), ['taken late'], 'shown once, as the user said it');
    // Nothing more is sent: the agent's next answer is to the next prompt.
    await within('a next prompt', api.prompt('next'));
    assert.equal(agentTexts(api).filter((t) => t === 'Received: taken late').length, 0, 'not sent again as a prompt');
  });
});

describe('done / needs-you signal (badge count of sessions waiting)', function () {
  this.timeout(60_000);
  let api: AcpNativeApi;
  agentSuite({ agent: { ...STEERING, name: 'signal' } }, (started) => (api = started));

  it('counts a session whose turn ended while another was shown, once per session; closing it clears it; off counts nothing new', async () => {
    const background = api.activeSessionId;
    assert.ok(background);
    const shown = await within('a second session', api.newSession());
    // Sessions of the suites before (the chat is hidden here: their turns count too).
    const before = api.sessionsWaiting();
    await within('a turn in the background session', api.prompt('first', background));
    assert.equal(api.sessionsWaiting(), before + 1);
    await within('another turn there', api.prompt('second', background));
    assert.equal(api.sessionsWaiting(), before + 1, 'a newer event replaces the older: one per session');
    await api.closeSession(background);
    await waitFor('its count to go', () => api.sessionsWaiting() === before);
    await setSetting('acpNative.notifications', 'off');
    try {
      const third = await within('a third session', api.newSession());
      api.setActiveSession(shown);
      await within('a turn with notifications off', api.prompt('quiet', third));
      assert.equal(api.sessionsWaiting(), before);
    } finally {
      await setSetting('acpNative.notifications', undefined);
    }
  });
});
