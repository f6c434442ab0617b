import * as assert from 'node:assert/strict';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { lastCall, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

describe('delete a session', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: { args: ['--load-session', '--delete-sessions'] } }, (started) => (api = started));

  it('closes the active session, sends session/delete and drops it from Session History', async () => {
    await within('a turn', api.prompt('session-directories'));
    const doomed = api.activeSessionId;
    assert.ok(doomed);
    assert.ok((await api.sessionHistory()).some((s) => s.sessionId === doomed), 'recorded before');

    await within('delete', api.deleteSession(doomed));
    assert.notEqual(api.activeSessionId, doomed);
    assert.ok(!(await api.sessionHistory()).some((s) => s.sessionId === doomed), 'forgotten after');

    await within('a new session', api.newSession('third-party'));
    await within('the report turn', api.prompt('deleted-sessions'));
    assert.deepEqual((lastCall(api).rawOutput as { result: unknown }).result, [doomed]);
  });
});
