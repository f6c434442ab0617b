// The hooks most suites open with: the extension's API, an agent chosen with the suite's settings,
// a session, and afterwards the agent stopped and every setting the suite changed put back.
import type { AcpNativeApi } from '../../../src/extension/api/api';
import { ChangedSettings, getApi, useTestAgent, type TestAgent } from '../../../harness/inHost/extension';
import { within } from '../../../harness/inHost/wait';
import { isMultiRoot } from './helpers';

export interface AgentSuiteOptions {
  /**
   * `bundled`: the bundled agent, with every edit approved and diffs opened as each edit
   * completes unless `settings` say otherwise; else a test agent of harness/agents (default: the
   * third-party one, named `third-party`).
   */
  readonly agent?: 'bundled' | Partial<TestAgent>;
  /** User settings of the suite (full keys), set once the agent is chosen. */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** Start a session with the agent in `before` (default true). */
  readonly session?: boolean;
  /** The pass that runs the suite; the other skips it (default single-root). */
  readonly pass?: 'single-root' | 'multi-root';
}

/**
 * Registers the suite's `before` and `after` (call it inside `describe`); `started` gets the
 * extension's API in `before`, before the session starts.
 */
export function agentSuite(options: AgentSuiteOptions, started: (api: AcpNativeApi) => void): void {
  const { agent = {}, settings = {}, session = true, pass = 'single-root' } = options;
  const changed = new ChangedSettings();
  let api: AcpNativeApi | undefined;

  before(async function () {
    if (isMultiRoot() !== (pass === 'multi-root')) this.skip();
    api = await getApi();
    started(api);
    if (agent === 'bundled') {
      await changed.setAll({
        'acpNative.defaultAgent': 'bundled',
        'acpNative.permissions.autoApprove': 'everything',
        'acpNative.diff.autoOpen': 'onComplete',
        ...settings,
      });
      await api.stopAgent();
    } else {
      await useTestAgent(api, { name: 'third-party', file: 'thirdPartyAgent', ...agent }, changed);
      await changed.setAll(settings);
    }
    if (session) await within('new session', api.newSession());
  });

  after(async () => {
    await api?.stopAgent();
    await changed.restore();
  });
}
