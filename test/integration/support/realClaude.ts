// What the opt-in suites with Claude's real ACP adapter share: they run only when ACP_REAL_CLAUDE
// points at the adapter installed OUTSIDE the repo and ANTHROPIC_API_KEY holds a key (never
// logged: it goes to the agent's environment only), e.g.
//   mkdir /tmp/real-agents && cd /tmp/real-agents && npm i @agentclientprotocol/claude-agent-acp
//   ACP_REAL_CLAUDE=/tmp/real-agents/node_modules/.bin/claude-agent-acp ANTHROPIC_API_KEY=… \
//     node harness/host/run-offline.mjs --grep "real Claude"
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AcpNativeApi } from '../../../src/extension/api/api';
import { ChangedSettings, getApi, useAgent } from '../../../harness/inHost/extension';
import { isMultiRoot, within } from './helpers';

/**
 * Registers the hooks (call it inside `describe`): the adapter started with a throw-away HOME and a
 * session, or the suite skipped; `settings` runs first, with that HOME, for what the agent must see
 * at its start. Returns the extension's API once the suite started.
 */
export function realClaudeSuite(settings?: (changed: ChangedSettings, home: string) => Promise<void>): () => AcpNativeApi {
  let api: AcpNativeApi | undefined;
  let home: string | undefined;
  const changed = new ChangedSettings();

  before(async function () {
    const adapter = process.env.ACP_REAL_CLAUDE;
    const key = process.env.ANTHROPIC_API_KEY;
    if (isMultiRoot() || !adapter || !key) this.skip();
    api = await getApi();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-claude-home-'));
    await settings?.(changed, home);
    await useAgent(api, { name: 'claude-real', command: adapter, args: [], env: { HOME: home, ANTHROPIC_API_KEY: key } }, changed);
    await within('a session', api.newSession(), 120_000);
  });

  after(async () => {
    await api?.stopAgent();
    await changed.restore();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  return () => {
    if (!api) throw new Error('The real Claude suite has not started.');
    return api;
  };
}
