import * as assert from 'node:assert/strict';
import type { AcpNativeApi } from '../../../src/extension/api/api';
import { within } from '../../../harness/inHost/wait';

/**
 * Closes the active session and opens it again with `session/load`: the agent replays it. Another
 * session of the same agent is started first and stays active, so the load goes to that agent.
 */
export async function reloadActiveSession(api: AcpNativeApi): Promise<void> {
  const sessionId = api.activeSessionId;
  assert.ok(sessionId, 'a session is active');
  await api.newSession();
  await api.closeSession(sessionId);
  await within('session/load', api.loadSession(sessionId));
}
