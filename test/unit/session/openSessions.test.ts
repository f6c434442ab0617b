import * as assert from 'node:assert/strict';
import { busySummary, sessionActivity, sessionTitle, switcherEntries, type OpenSession } from '../../../src/extension/session/model/openSessions';
import { Transcript, type TranscriptEntry } from '../../../src/extension/session/model/transcript';

/** A user message as the session records a prompt. */
function prompt(text: string): TranscriptEntry {
  const transcript = new Transcript();
  transcript.startMessage('user', [{ type: 'text', text }]);
  return transcript.entries[0] as TranscriptEntry;
}

function open(partial: Partial<OpenSession> & { sessionId: string }): OpenSession {
  return { agentName: 'Claude', title: undefined, transcript: [], busy: false, questions: 0, running: true, ...partial };
}

describe('open sessions (switcher and status bar)', () => {
  it('titles a session by the agent, else its first prompt cut short, else "New session"', () => {
    assert.equal(sessionTitle({ title: 'Fix the tests', transcript: [prompt('ignored')] }), 'Fix the tests');
    assert.equal(sessionTitle({ title: undefined, transcript: [prompt('  Explain\n  this   file ')] }), 'Explain this file');
    const long = sessionTitle({ title: undefined, transcript: [prompt('x'.repeat(100))] });
    assert.equal(long.length, 40);
    assert.ok(long.endsWith('…'));
    assert.equal(sessionTitle({ title: '  ', transcript: [] }), 'New session');
  });

  it('says a session waiting for an answer needs the user, even while it works', () => {
    assert.equal(sessionActivity({ busy: false, questions: 0 }), 'idle');
    assert.equal(sessionActivity({ busy: true, questions: 0 }), 'working');
    assert.equal(sessionActivity({ busy: true, questions: 1 }), 'waiting');
  });

  it('lists every open session for the switcher, marking the one shown', () => {
    const entries = switcherEntries(
      [open({ sessionId: 'a', title: 'One' }), open({ sessionId: 'b', agentName: 'ACP Native agent', busy: true, questions: 2, transcript: [prompt('/demo')] })],
      'b',
    );
    assert.deepEqual(entries, [
      { sessionId: 'a', agentName: 'Claude', title: 'One', activity: 'idle', shown: false },
      { sessionId: 'b', agentName: 'ACP Native agent', title: '/demo', activity: 'waiting', shown: true },
    ]);
  });

  it('counts busy and waiting sessions for the status bar, one tooltip line each', () => {
    const summary = busySummary([
      open({ sessionId: 'a', title: 'Tests', busy: true }),
      open({ sessionId: 'b', agentName: 'Codex', title: 'Docs', busy: true, questions: 1 }),
      open({ sessionId: 'c', agentName: 'Gemini', title: 'Idle one' }),
    ]);
    assert.equal(summary.busy, 2);
    assert.equal(summary.waiting, 1);
    assert.equal(summary.text, '2 busy, 1 waiting');
    assert.deepEqual(summary.lines, ['Claude · Tests: working', 'Codex · Docs: needs your answer', 'Gemini · Idle one: idle']);
    assert.equal(busySummary([open({ sessionId: 'a' }), open({ sessionId: 'b' })]).text, '2 open');
  });

  it("leaves a stopped agent's sessions out of the counts and the switcher, unless one is shown", () => {
    const sessions = [open({ sessionId: 'old', busy: false, running: false }), open({ sessionId: 'a', busy: true }), open({ sessionId: 'b' })];
    const summary = busySummary(sessions);
    assert.equal(summary.open, 2);
    assert.equal(summary.text, '1 busy');
    assert.deepEqual(switcherEntries(sessions, 'a').map((e) => e.sessionId), ['a', 'b']);
    assert.deepEqual(switcherEntries(sessions, 'old').map((e) => e.sessionId), ['old', 'a', 'b']);
  });
});
