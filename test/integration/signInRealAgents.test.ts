// Sign-in against the real agents, opt-in: each test runs only when an environment variable
// points at the agent installed OUTSIDE the repo (Codex's binary package is ~223 MB, never a
// dependency of the project), e.g.
//   mkdir /tmp/real-agents && cd /tmp/real-agents && npm i @zed-industries/codex-acp @google/gemini-cli @agentclientprotocol/claude-agent-acp
//   mkdir /tmp/codex26 && cd /tmp/codex26 && npm i @agentclientprotocol/codex-acp@2.6.0   (457 MB with its Codex binary)
//   ACP_REAL_CODEX26=/tmp/codex26/node_modules/.bin/codex-acp \
//   ACP_REAL_CODEX=/tmp/real-agents/node_modules/.bin/codex-acp \
//   ACP_REAL_GEMINI=/tmp/real-agents/node_modules/.bin/gemini \
//   ACP_REAL_CLAUDE=/tmp/real-agents/node_modules/.bin/claude-agent-acp \
//     node harness/host/run-offline.mjs --grep "real agents"
// Everything here works offline: dummy keys, fresh CODEX_HOME / HOME folders.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { getApi, isMultiRoot, setSetting, useAgent, waitFor, within } from './support/helpers';

describe('sign-in with real agents (opt-in)', function () {
  this.timeout(180_000);
  let api: AcpNativeApi;


  /** Starts a session the agent refuses, dismissing the sign-in QuickPick: the agent's error. */
  async function refusedSession(): Promise<unknown> {
    let settled = false;
    // Handled at once: the refusal is the expected outcome.
    const outcome = api.newSession().then(
      () => assert.fail('the agent should refuse a session before sign-in'),
      (error: unknown) => error,
    );
    void outcome.finally(() => (settled = true));
    await waitFor(
      'the refused session',
      () => {
        if (settled) return true;
        void vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        return false;
      },
      60_000,
    );
    return outcome;
  }

  before(async function () {
    if (isMultiRoot() || !(process.env.ACP_REAL_CODEX || process.env.ACP_REAL_CODEX26 || process.env.ACP_REAL_GEMINI || process.env.ACP_REAL_CLAUDE)) this.skip();
    api = await getApi();
  });

  after(async () => {
    await api?.stopAgent();
    await setSetting('acpNative.defaultAgent', undefined);
    await setSetting('acpNative.agents', undefined);
  });

  it('Codex: env_var sign-in (CODEX_API_KEY) restarts it with the key and ends in a session; sign out logs out', async function () {
    const codex = process.env.ACP_REAL_CODEX;
    if (!codex) this.skip();
    const codexHome = fs.mkdtempSync(path.join(os.homedir(), '.acp-codex-home-'));
    try {
      await useAgent(api, { name: 'codex-real', command: codex, args: [], env: { CODEX_HOME: codexHome, CODEX_API_KEY: '', OPENAI_API_KEY: '' } });
      assert.match(((await refusedSession()) as Error).message, /Authentication required/);
      assert.deepEqual(
        api.authMethods().filter((m) => m.type === 'env_var').map((m) => m.id),
        ['codex-api-key', 'openai-api-key'],
        'the env_var methods, as sent over the wire',
      );
      await within('sign-in', api.signIn('codex-api-key', { CODEX_API_KEY: 'sk-dummy-not-a-real-key' }), 60_000);
      const sessionId = await within('a Codex session', api.newSession(), 60_000);
      assert.ok(sessionId);
      assert.ok(fs.existsSync(path.join(codexHome, 'auth.json')), 'Codex kept the key in its CODEX_HOME');
      await vscode.commands.executeCommand('acpNative.signOut');
      await waitFor('Codex to forget the key', () => !fs.existsSync(path.join(codexHome, 'auth.json')), 20_000);
    } finally {
      await api.stopAgent();
      fs.rmSync(codexHome, { recursive: true, force: true });
    }
  });

  it('Codex 2.6: the API key given only to signIn reaches it ({apiKey} form); a session starts; offline its turn stops on Cancel', async function () {
    const codex = process.env.ACP_REAL_CODEX26;
    if (!codex) this.skip();
    this.timeout(300_000);
    const codexHome = fs.mkdtempSync(path.join(os.homedir(), '.acp-codex26-home-'));
    try {
      // No key anywhere in its environment: only what signIn sends can sign it in.
      await useAgent(api, { name: 'codex26-real', command: codex, args: [], env: { CODEX_HOME: codexHome, CODEX_API_KEY: '', OPENAI_API_KEY: '', NO_BROWSER: '1' } });
      assert.match(((await refusedSession()) as Error).message, /Authentication required/);
      const methods = api.authMethods().map((m) => [m.id, m.type]);
      assert.deepEqual(methods.slice(0, 1), [['api-key', 'agent']], JSON.stringify(methods));
      assert.ok(methods.some(([id]) => id === 'chat-gpt-device-code'), 'the device code is offered to a client with URL forms');
      await within('sign-in', api.signIn('api-key', { 'api-key': 'sk-dummy-not-a-real-key' }), 60_000);
      const sessionId = await within('a Codex session', api.newSession(), 60_000);
      assert.ok(sessionId);
      // A dummy key and no network: the turn cannot succeed. Codex 2.6 retries its model stream
      // for minutes offline; the turn must either end with a reason or stop on Cancel, never hang.
      const turn = api.prompt('Say hello.').then(
        (stop) => ({ stop, error: undefined as string | undefined }),
        (error: unknown) => ({ stop: undefined, error: error instanceof Error ? error.message : String(error) }),
      );
      const early = await Promise.race([turn, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 60_000))]);
      if (early?.error !== undefined) assert.ok(!/Authentication required/.test(early.error), `a clear reason, not a sign-in loop: ${early.error}`);
      if (!early) {
        await api.cancel();
        const ended = await within('the cancelled turn', turn, 30_000);
        assert.equal(ended.stop, 'cancelled', JSON.stringify(ended));
      }
    } finally {
      await api.stopAgent();
      fs.rmSync(codexHome, { recursive: true, force: true });
    }
  });

  it('Gemini CLI: api-key sign-in sends the key in _meta and ends in a session', async function () {
    const gemini = process.env.ACP_REAL_GEMINI;
    if (!gemini) this.skip();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-gemini-home-'));
    try {
      await useAgent(api, { name: 'gemini-real', command: gemini, args: ['--acp'], env: { HOME: home, GEMINI_API_KEY: '', GOOGLE_API_KEY: '' } });
      assert.match(((await refusedSession()) as Error).message, /API key is missing/);
      assert.deepEqual(
        api.authMethods().map((m) => [m.id, m.type]),
        [
          ['oauth-personal', 'agent'],
          ['gemini-api-key', 'agent'],
          ['vertex-ai', 'agent'],
          ['gateway', 'agent'],
        ],
      );
      await within('sign-in', api.signIn('gemini-api-key', { 'api-key': 'dummy-not-a-real-key' }), 60_000);
      assert.ok(await within('a Gemini session', api.newSession(), 60_000));
    } finally {
      await api.stopAgent();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('Claude\'s adapter: offers its terminal logins to a client that announces terminal auth', async function () {
    const claude = process.env.ACP_REAL_CLAUDE;
    if (!claude) this.skip();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-claude-home-'));
    try {
      await useAgent(api, { name: 'claude-real', command: claude, args: [], env: { HOME: home, ANTHROPIC_API_KEY: '' } });
      // Its session/new fails without a login (not with -32000 in every version): start it alone.
      const methods = await within(
        'the agent to start',
        (async () => {
          try {
            await api.signIn('none-such');
          } catch {
            // the error lists the methods; authMethods() has them now
          }
          return api.authMethods();
        })(),
        60_000,
      );
      assert.ok(methods.length > 0, 'terminal methods offered');
      assert.ok(methods.every((m) => m.type === 'terminal'), JSON.stringify(methods));
    } finally {
      await api.stopAgent();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
