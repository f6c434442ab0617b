import * as assert from 'node:assert/strict';
import { encodeEntry, journalText, parseJournal, type JournalEntry } from '../../../src/extension/session/model/sessionJournal';
import { SessionState } from '../../../src/extension/session/model/sessionState';

// Flushes never run: these tests read the state, not its change events.
const now = (): void => undefined;

function turn(state: SessionState): void {
  state.recordPrompt([{ type: 'text', text: 'Fix the walrus' }]);
  state.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'On ' } });
  state.apply({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'it.' } });
  state.apply({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit walrus.txt', kind: 'edit', status: 'completed' });
  state.endTurn();
}

describe('session journal', () => {
  it('records what the state is fed, and restoring it shows the same conversation and cards without journaling it twice', () => {
    const journal: JournalEntry[] = [];
    const live = new SessionState({ sessionId: 's', cwd: '/w', schedule: now, journal: (e) => journal.push(e) });
    turn(live);
    assert.deepEqual(journal.map((e) => e.k), ['prompt', 'update', 'update', 'update', 'end']);

    const again: JournalEntry[] = [];
    const restored = new SessionState({ sessionId: 's', cwd: '/w', schedule: now, journal: (e) => again.push(e) });
    restored.restore(parseJournal(journal.map(encodeEntry).join('')).entries);
    assert.equal(again.length, 0, 'a restore is not journaled again');
    assert.deepEqual(restored.transcript.map((e) => (e.type === 'message' ? `${e.role}: ${e.text}` : e.type)), live.transcript.map((e) => (e.type === 'message' ? `${e.role}: ${e.text}` : e.type)));
    assert.equal(restored.toolCall('c1')?.title, 'Edit walrus.txt');
    assert.equal(restored.turn, live.turn);
    // What comes after the restore is journaled as usual.
    restored.recordPrompt([{ type: 'text', text: 'more' }]);
    assert.deepEqual(again.map((e) => e.k), ['prompt']);
  });

  it('reads a whole journal as whole, and says why one is not (a corrupted line, a cut)', () => {
    const lines = [encodeEntry({ k: 'prompt', prompt: [{ type: 'text', text: 'hi' }] }), encodeEntry({ k: 'end' })];
    assert.equal(parseJournal(lines.join('')).incomplete, undefined);
    const torn = parseJournal(`${lines.join('')}{"k":"upd`);
    assert.equal(torn.entries.length, 2, 'the good lines are kept');
    assert.match(torn.incomplete ?? '', /line 3 is not JSON/);
    assert.match(parseJournal(`${lines[0]}{"k":"update","update":{}}\n`).incomplete ?? '', /line 2 is not a journal entry/);
    assert.match(parseJournal(`${lines[0]}["k"]\n`).incomplete ?? '', /not a journal entry/);
    assert.equal(parseJournal(encodeEntry({ k: 'cut', reason: 'the journal passed 8 MB' })).incomplete, 'the journal passed 8 MB');
    assert.deepEqual(parseJournal(''), { entries: [], incomplete: undefined });
  });

  it('gives the words of the conversation, one message a line, without thoughts or tool calls', () => {
    const journal: JournalEntry[] = [];
    const state = new SessionState({ sessionId: 's', cwd: '/w', schedule: now, journal: (e) => journal.push(e) });
    turn(state);
    state.apply({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'secret' } });
    state.recordPrompt([{ type: 'text', text: 'And the seal' }, { type: 'image', data: 'AA==', mimeType: 'image/png' }]);
    assert.equal(journalText(journal), 'Fix the walrus\nOn it.\nAnd the seal');
  });
});
