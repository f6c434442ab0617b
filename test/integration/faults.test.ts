import * as assert from 'node:assert/strict';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { DEFAULT_OUTPUT_LIMIT } from '../../src/extension/cards/terminal/clientTerminals';
import { inWorkspace, lastCall, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

/** The longest the extension host's event loop stalled while `run` ran (a 10 ms interval's lateness). */
async function longestStall<T>(run: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = Date.now();
  let stallMs = 0;
  const probe = setInterval(() => {
    const now = Date.now();
    stallMs = Math.max(stallMs, now - last - 10);
    last = now;
  }, 10);
  try {
    return { result: await run(), stallMs };
  } finally {
    clearInterval(probe);
  }
}

describe('faults from a misbehaving agent lose nothing', function () {
  let api: AcpNativeApi;

  agentSuite({}, (started) => (api = started));

  it('keeps updates sent before session/new answered, and drops those for a session nobody created', async () => {
    const stats = api.stats();
    const state = JSON.stringify({ active: api.activeSessionId, sessions: stats.sessionIds });
    assert.deepEqual(stats.availableCommands, ['early'], `the early available_commands_update landed in the new session (${state})`);
    assert.equal(await within('the phantom turn', api.prompt('phantom-update')), 'end_turn');
    assert.ok(!api.stats().sessionIds.includes('sess_phantom'), `no phantom session: ${JSON.stringify(api.stats().sessionIds)}`);
  });

  it('stops an agent whose message is over the size limit, says why, and the next prompt starts a fresh agent', async () => {
    await assert.rejects(within('the huge-line turn', api.prompt('huge-line 40')), (error: Error) => {
      assert.match(error.message, /connection broke/);
      assert.match(error.message, /larger than 32 MiB/);
      return true;
    });
    // No Restart needed: the dead agent was stopped, so the next prompt starts a new one.
    const stop = await within('the next prompt', api.prompt(`fs-read ${inWorkspace('src/math.js')} 1 1`));
    assert.equal(stop, 'end_turn');
    assert.deepEqual(lastCall(api).rawOutput, { ok: true, result: { content: 'function add(a, b) {' } });
  });

  it('keeps a bounded stderr tail from a \\r progress bar: the exit message stays short', async () => {
    const { stallMs } = await longestStall(() => within('the progress turn', api.prompt('stderr-progress 20')));
    await assert.rejects(within('the crash turn', api.prompt('crash')), (error: Error) => {
      assert.match(error.message, /exited with code 7/);
      assert.match(error.message, /boom: the test agent crashes on purpose/);
      assert.match(error.message, /progress done/);
      // Before: the 20 MB progress "line" was kept whole and shown in this message.
      assert.ok(error.message.length < 20_000, `message of ${error.message.length} characters`);
      return true;
    });
    console.log(`stderr progress 20 MB: longest extension-host stall ${stallMs} ms`);
    // No restart: the next prompt starts a fresh agent (Restart is throttled across suites).
  });

  it('bounds a client terminal flood: terminal/output keeps the limit, the panel skips what it cannot show', async () => {
    const { stallMs } = await longestStall(() => within('the flood turn', api.prompt('terminal-flood 24'), 60_000));
    // The panel shows the flood once VS Code has opened it: wait for its exit line, not just the turn.
    const call = await waitFor('the flood result in its panel', () => {
      const last = lastCall(api);
      return last.rawOutput && /\[exit code 0\]/.test(last.terminal?.output ?? '') ? last : undefined;
    });
    assert.deepEqual(call.rawOutput, { exitCode: 0, bytes: DEFAULT_OUTPUT_LIMIT, truncated: true });
    const rendered = call.terminal?.output ?? '';
    assert.match(rendered, /of output not shown/, 'the panel was given a bounded share of the flood');
    assert.ok(rendered.length <= 1024 * 1024, `rendered ${rendered.length}`);
    console.log(`terminal flood 24 MB: longest extension-host stall ${stallMs} ms`);
  });
});
