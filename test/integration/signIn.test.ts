import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { getApi, isMultiRoot, setSetting, useTestAgent, waitFor, within } from './support/helpers';

/** What the sign-in test agent (harness/agents/signInAgent.ts) recorded, in order. */
type AgentEvent = { pid: number; method: string } & Record<string, unknown>;

function events(stateDir: string): AgentEvent[] {
  const file = path.join(stateDir, 'events.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AgentEvent);
}

const calls = (stateDir: string, method: string) => events(stateDir).filter((e) => e.method === method);
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** Tracks whether a promise settled, without swallowing its outcome. */
function track<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { promise, settled: () => settled };
}

/**
 * Answers the sign-in QuickPick as a user would, with the workbench's own quick-open commands,
 * until `done` holds (a QuickPick shows up when the agent refuses; its first item is chosen).
 */
async function answerQuickPick(command: 'workbench.action.acceptSelectedQuickOpenItem' | 'workbench.action.closeQuickOpen', what: string, done: () => boolean): Promise<void> {
  await waitFor(
    what,
    () => {
      if (done()) return true;
      void vscode.commands.executeCommand(command);
      return false;
    },
    30_000,
  );
}

describe('sign-in', function () {
  let api: AcpNativeApi;
  let root: string;
  let counter = 0;

  /** A fresh sign-in agent (own name, so nothing is stored for it yet) as the default agent. */
  async function useSignInAgent(env: Record<string, string> = {}): Promise<{ name: string; stateDir: string }> {
    const name = `sign-in-${++counter}`;
    const stateDir = path.join(root, name);
    await useTestAgent(api, { name, file: 'signInAgent', env: { SIGNIN_AGENT_STATE: stateDir, ...env } });
    return { name, stateDir };
  }

  before(async function () {
    if (isMultiRoot()) this.skip();
    api = await getApi();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-signin-'));
  });

  after(async () => {
    await api?.stopAgent();
    await setSetting('acpNative.defaultAgent', undefined);
    await setSetting('acpNative.agents', undefined);
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('runs the terminal login when session/new is refused, then retries by itself and gets the session', async () => {
    const { name, stateDir } = await useSignInAgent();
    const session = track(api.newSession());
    await answerQuickPick('workbench.action.acceptSelectedQuickOpenItem', 'the sign-in terminal', () =>
      session.settled() || vscode.window.terminals.some((t) => t.name === `Sign in: ${name}`) || calls(stateDir, 'terminal-login').length > 0,
    );
    const sessionId = await within('the session after the terminal login', session.promise);
    assert.match(sessionId, /^signed-in-/);
    // The login ran as a real program in a real terminal (a TTY), with the method's env.
    const marker = JSON.parse(fs.readFileSync(path.join(stateDir, 'terminal-login.json'), 'utf8')) as { tty: boolean; method: string };
    assert.deepEqual(marker, { tty: true, method: 'terminal-login' });
    // Refused once, retried once; the terminal method never went to authenticate.
    assert.deepEqual(
      calls(stateDir, 'session/new').map((e) => e.signedIn),
      [false, true],
    );
    assert.deepEqual(calls(stateDir, 'authenticate'), []);
    // The client announced terminal auth, and kept every method the agent sent (env_var too).
    const [init] = calls(stateDir, 'initialize');
    assert.equal(init?.authTerminal, true);
    assert.equal(init?.terminalAuthMeta, true);
    assert.deepEqual(
      api.authMethods().map((m) => [m.id, m.type]),
      [
        ['terminal-login', 'terminal'],
        ['env-token', 'env_var'],
        ['api-key', 'agent'],
        ['gateway', 'agent'],
      ],
    );
  });

  it('fails with the exit code when the terminal login fails, and does not loop', async () => {
    const { stateDir } = await useSignInAgent({ SIGNIN_AGENT_LOGIN_EXIT: '1' });
    const session = track(api.newSession());
    await answerQuickPick('workbench.action.acceptSelectedQuickOpenItem', 'the failed login', () => session.settled() || calls(stateDir, 'terminal-login').length > 0);
    await assert.rejects(within('the refused session', session.promise), /"Terminal login" failed: the login program exited with code 1/);
    assert.equal(calls(stateDir, 'terminal-login').length, 1, 'one login');
    assert.equal(calls(stateDir, 'session/new').length, 1, 'no retry after a failed login');
    assert.ok(!fs.existsSync(path.join(stateDir, 'terminal-login.json')));
  });

  it('says which method was tried when the agent still refuses after signing in', async () => {
    const { stateDir } = await useSignInAgent({ SIGNIN_AGENT_NEVER: '1' });
    const session = track(api.newSession());
    await answerQuickPick('workbench.action.acceptSelectedQuickOpenItem', 'the login', () => session.settled() || calls(stateDir, 'terminal-login').length > 0);
    await assert.rejects(within('the refused session', session.promise), /still asks for sign-in after signing in with "Terminal login"/);
    assert.equal(calls(stateDir, 'terminal-login').length, 1, 'one login');
    assert.equal(calls(stateDir, 'session/new').length, 2, 'one retry, no more');
  });

  it('env_var: stores the variable, restarts the agent with it, authenticates, and keeps it for the next start', async () => {
    const { name, stateDir } = await useSignInAgent();
    await within('sign-in', api.signIn('env-token', { SIGNIN_AGENT_TOKEN: 'dummy-token-for-tests' }));
    const inits = calls(stateDir, 'initialize');
    assert.deepEqual(
      inits.map((e) => e.token),
      [false, true],
      'restarted with the variable in its environment',
    );
    const [auth] = calls(stateDir, 'authenticate');
    assert.equal(auth?.methodId, 'env-token');
    assert.equal(auth?.pid, inits[1]?.pid, 'authenticate went to the restarted agent');
    assert.match(await within('a session', api.newSession()), /^signed-in-/);
    // Never in the settings.
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('acpNative').inspect('agents')).includes('dummy-token-for-tests'));
    // A fresh start gets the variable from secret storage and signs in again without asking.
    await api.stopAgent();
    assert.match(await within('a session after a restart', api.newSession()), /^signed-in-/);
    assert.equal(calls(stateDir, 'initialize').at(-1)?.token, true);
    assert.deepEqual(
      calls(stateDir, 'authenticate').map((e) => e.methodId),
      ['env-token', 'env-token'],
    );

    // Sign out: logout, the variable forgotten, the agent stopped (its environment held it).
    await vscode.commands.executeCommand('acpNative.signOut');
    assert.equal(calls(stateDir, 'logout').length, 1);
    assert.deepEqual(api.authMethods(), [], 'the agent was stopped');
    const refused = track(api.newSession());
    await answerQuickPick('workbench.action.closeQuickOpen', 'the refused session', refused.settled);
    await assert.rejects(refused.promise, /Sign in to the sign-in test agent first/);
    assert.equal(calls(stateDir, 'initialize').at(-1)?.token, false, `${name} started without the forgotten variable`);
  });

  it('api-key: sends the key in authenticate\'s _meta and signs in again with the stored key after a restart', async () => {
    const { stateDir } = await useSignInAgent();
    await within('sign-in', api.signIn('api-key', { 'api-key': 'dummy-key-for-tests' }));
    assert.deepEqual(
      calls(stateDir, 'authenticate').map((e) => [e.methodId, e.apiKey]),
      [['api-key', digest('dummy-key-for-tests')]],
    );
    assert.equal(calls(stateDir, 'initialize').length, 1, 'no restart for an agent method');
    const first = await within('a session', api.newSession());
    await api.stopAgent();
    const second = await within('a session after a restart', api.newSession());
    assert.notEqual(first, second);
    assert.deepEqual(
      calls(stateDir, 'authenticate').map((e) => e.apiKey),
      [digest('dummy-key-for-tests'), digest('dummy-key-for-tests')],
    );
    assert.deepEqual(
      calls(stateDir, 'session/new').map((e) => e.signedIn),
      [true, false, true],
    );
  });

  it('gateway: sends the base URL and headers in authenticate\'s _meta', async () => {
    const { stateDir } = await useSignInAgent();
    await assert.rejects(api.signIn('gateway', { baseUrl: 'ftp://nope', headers: '' }), /http/);
    await within('sign-in', api.signIn('gateway', { baseUrl: 'https://gateway.example/v1', headers: '{"X-Gateway-Token": "t"}' }));
    assert.deepEqual(calls(stateDir, 'authenticate').at(-1)?.gateway, { baseUrl: 'https://gateway.example/v1', headers: ['X-Gateway-Token'] });
    assert.match(await within('a session', api.newSession()), /^signed-in-/);
  });

  it('sign out logs out, forgets the key, and a refused prompt signs in and is sent again', async () => {
    const { stateDir } = await useSignInAgent();
    await within('sign-in', api.signIn('api-key', { 'api-key': 'dummy-key-for-tests' }));
    await within('a session', api.newSession());
    await vscode.commands.executeCommand('acpNative.signOut');
    assert.equal(calls(stateDir, 'logout').length, 1);
    // The agent now refuses the prompt; no stored key is left to sign in with, so the user is
    // asked: the terminal login is picked, and the prompt goes through on the same session.
    const turn = track(api.prompt('hello'));
    await answerQuickPick('workbench.action.acceptSelectedQuickOpenItem', 'the login', () => turn.settled() || calls(stateDir, 'terminal-login').length > 0);
    assert.equal(await within('the prompt after sign-in', turn.promise), 'end_turn');
    assert.deepEqual(
      calls(stateDir, 'session/prompt').map((e) => e.signedIn),
      [false, true],
    );
    assert.equal(calls(stateDir, 'authenticate').length, 1, 'the forgotten key was not sent again');
  });

  it('rejects an unknown method id with the ones the agent offers', async () => {
    await useSignInAgent();
    await assert.rejects(api.signIn('nope'), /no sign-in method "nope" \(it offers: terminal-login, env-token, api-key, gateway\)/);
  });
});
