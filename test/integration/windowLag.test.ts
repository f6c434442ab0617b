import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { sleep } from '../../harness/inHost/wait';
import { agentSuite } from './support/agentSuite';
import { waitFor, within } from './support/helpers';

const CALLS = 3000;
/** Paced, so the storm lasts a few seconds while the test keeps the host behind. */
const CALLS_PER_SECOND = 600;

/** Holds the extension host's event loop for `ms`: what a window drawing on the same CPUs does to it. */
function hold(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // busy: the loop is blocked
  }
}

interface Seen {
  at: number;
  stored: number;
  level: string;
  progress: string | undefined;
}

describe('Window lag: under a storm the counters stay current, and afterwards every call is shown', function () {
  this.timeout(120_000);
  let api: AcpNativeApi;

  agentSuite({ agent: { name: 'storm', file: 'stormAgent' }, settings: { 'acpNative.performance.adaptToWindowLag': true } }, (started) => (api = started));

  it('draws less while the host is behind, counts the calls meanwhile, then shows all of them', async () => {
    await vscode.commands.executeCommand('acpNative.toolCalls.focus');
    await sleep(500);
    const progressBefore = api.chatMessagesPosted().progress;
    const turn = api.prompt(`storm ${CALLS} ${CALLS_PER_SECOND}`);
    let ended = false;
    void turn.finally(() => (ended = true));
    const seen: Seen[] = [];
    // The host is kept behind (blocked 90 ms of every ~110) while the agent sends its calls; for
    // 45 s at most, as a loop left holding the host after a timeout would stall every later test.
    const holdUntil = performance.now() + 45_000;
    while (!ended && performance.now() < holdUntil) {
      hold(90);
      await sleep(20);
      const stats = api.stats();
      seen.push({ at: performance.now(), stored: api.toolCalls().length, level: stats.window.level, progress: stats.window.progress });
    }
    assert.equal(await within('the storm turn', turn, 60_000), 'end_turn');

    const behind = seen.filter((s) => s.level !== 'normal');
    assert.ok(behind.length > 0, `the loop saw the host behind (levels: ${[...new Set(seen.map((s) => s.level))].join(', ')})`);
    assert.ok(api.stats().window.levelChanges > 0);
    // While behind, the Tool Calls view counts the calls, and the count keeps up with the store:
    // never more than it holds, never more than a second behind it.
    const counted = behind.filter((s) => s.progress !== undefined);
    assert.ok(counted.length > 0, 'the Tool Calls view showed the count while behind');
    const numbers = new Set<number>();
    for (const s of counted) {
      const match = /^([\d,]+) calls?, showing the newest$/.exec(s.progress ?? '');
      assert.ok(match, `the count reads "N calls, showing the newest": ${s.progress}`);
      const n = Number(match[1].replace(/,/g, ''));
      numbers.add(n);
      assert.ok(n <= s.stored, `counted ${n} of ${s.stored} stored`);
      const secondBefore = [...seen].reverse().find((e) => e.at <= s.at - 1000);
      if (secondBefore) assert.ok(n >= secondBefore.stored, `counted ${n}, the store held ${secondBefore.stored} a second before`);
    }
    assert.ok(numbers.size >= 2 || CALLS < 100, `the count moved while behind: ${[...numbers].join(', ')}`);
    assert.ok(api.chatMessagesPosted().progress > progressBefore, 'the chat posted its count line too');

    // Caught up: the normal cadence again, the counts gone, and every call shown.
    await waitFor('the normal cadence', () => api.stats().window.level === 'normal', 15_000);
    await waitFor('the count gone', () => api.stats().window.progress === undefined, 5_000);
    const calls = api.toolCalls();
    assert.equal(calls.length, CALLS, 'every call is in the store');
    assert.equal(new Set(calls.map((c) => c.id)).size, CALLS);
    const shown = await waitFor(
      'the window showing the last call',
      () => {
        const w = api.stats().window;
        return w.tree?.calls === CALLS && w.chat !== undefined && w.chat.length === w.chatPosted ? w : undefined;
      },
      15_000,
      () => JSON.stringify(api.stats().window),
    );
    assert.equal(shown.tree?.sessionId, api.activeSessionId, 'the Tool Calls view listed the storm session with all its calls');
    // The chat's list holds a row for every call (and the prompt and the agent's text around them).
    assert.ok((shown.chat?.length ?? 0) > CALLS, `the chat drew ${shown.chat?.length} rows for ${CALLS} calls`);
  });
});
