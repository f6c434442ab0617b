import * as assert from 'node:assert/strict';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { lastCall, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

/** The `session-directories` report: which of new/load/resume this agent process was sent, in order. */
async function methodsSeen(api: AcpNativeApi): Promise<string[]> {
  await within('the report turn', api.prompt('session-directories'));
  return ((lastCall(api).rawOutput as { result: { method: string }[] }).result ?? []).map((r) => r.method);
}

/** A turn whose answer is text the agent sends once (the test agent names the unknown scenario). */
async function talk(api: AcpNativeApi, word: string): Promise<void> {
  await within(`the ${word} turn`, api.prompt(word));
}

// Each suite its own agent name: restarts are throttled per agent.
describe('session resume', function () {
  describe('an agent that resumes', function () {
    let api: AcpNativeApi;
    agentSuite({ agent: { args: ['--load-session', '--resume-sessions', '--session-prefix', 'resume-'], name: 'resuming-agent' } }, (started) => (api = started));

    it('continues the session after a restart with session/resume, the conversation shown from our records', async () => {
      const sessionId = api.activeSessionId;
      assert.ok(sessionId);
      await talk(api, 'walrus-before-restart');
      const before = api.conversation();
      assert.deepEqual(before.map((m) => m.text), ['walrus-before-restart', 'unknown scenario walrus-before-restart']);

      const after = await within('restart', api.restartAgent());
      assert.equal(after, sessionId, 'the same session goes on');
      // This agent's session/load replays nothing: the conversation can only come from the journal.
      assert.deepEqual(api.conversation(), before);
      assert.deepEqual(await methodsSeen(api), ['resume'], 'resumed, not loaded');
    });

    it('resumes a session that is no longer open (as after a window reload) from its recorded conversation', async () => {
      const sessionId = api.activeSessionId;
      assert.ok(sessionId);
      const before = api.conversation();
      assert.ok(before.some((m) => m.text === 'walrus-before-restart'), JSON.stringify(before));
      // Nothing of the session left in memory: only the journal in the workspace storage.
      await api.stopAgent();
      await api.closeSession(sessionId);
      assert.ok(!api.sessions().some((s) => s.sessionId === sessionId));

      await within('open it from the history', api.loadSession(sessionId));
      assert.equal(api.activeSessionId, sessionId);
      assert.deepEqual(api.conversation(), before);
      assert.deepEqual(await methodsSeen(api), ['resume']);
    });

    it('loads (session/load) a session whose record is gone, since its history must come from the agent', async () => {
      const sessionId = api.activeSessionId;
      assert.ok(sessionId);
      await api.stopAgent();
      await api.closeSession(sessionId);
      // Delete forgets the journal; the agent (no session/delete here) still has the session.
      await api.deleteSession(sessionId);
      await within('load', api.loadSession(sessionId));
      assert.deepEqual(await methodsSeen(api), ['load']);
    });
  });

  describe('an agent without resume', function () {
    let api: AcpNativeApi;
    agentSuite({ agent: { args: ['--load-session', '--session-prefix', 'load-only-'], name: 'load-only-agent' } }, (started) => (api = started));

    it('gets session/load after a restart', async () => {
      const sessionId = api.activeSessionId;
      await talk(api, 'walrus-load-only');
      assert.equal(await within('restart', api.restartAgent()), sessionId);
      assert.deepEqual(await methodsSeen(api), ['load']);
    });
  });

  describe('an agent that refuses to resume', function () {
    let api: AcpNativeApi;
    agentSuite({ agent: { args: ['--load-session', '--refuse-resume', '--session-prefix', 'refuses-'], name: 'refusing-agent' } }, (started) => (api = started));

    it('falls back to session/load', async () => {
      const sessionId = api.activeSessionId;
      await talk(api, 'walrus-refused');
      assert.equal(await within('restart', api.restartAgent()), sessionId);
      assert.deepEqual(await methodsSeen(api), ['load']);
    });
  });

  describe('an agent that refuses to resume and cannot load', function () {
    let api: AcpNativeApi;
    agentSuite({ agent: { args: ['--refuse-resume', '--session-prefix', 'stuck-'], name: 'stuck-agent' } }, (started) => (api = started));

    it('starts a new session and says so in the chat', async () => {
      await talk(api, 'walrus-stuck');
      // The new agent process may hand out the old id again: the session is new all the same.
      const fresh = await within('restart', api.restartAgent());
      assert.deepEqual(api.conversation(fresh), []);
      const notices = api.notices(fresh);
      assert.ok(notices.some((n) => /could not continue the earlier session: this is a new one/.test(n.title)), JSON.stringify(notices));
      assert.ok(notices.some((n) => /cannot resume sessions today/.test(n.description ?? '')), JSON.stringify(notices));
      assert.deepEqual(await methodsSeen(api), ['new']);
    });
  });
});
