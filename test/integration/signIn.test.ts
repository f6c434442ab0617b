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
        ['object-key', 'agent'],
        ['device-code', 'agent'],
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

  it('api-key, Gemini\'s string form: the object form refused, the string sent, remembered for the agent after a restart', async () => {
    const { stateDir } = await useSignInAgent();
    await within('sign-in', api.signIn('api-key', { 'api-key': 'dummy-key-for-tests' }));
    assert.deepEqual(
      calls(stateDir, 'authenticate').map((e) => [e.methodId, e.keyForm, e.apiKey]),
      [
        ['api-key', 'object', undefined],
        ['api-key', 'string', digest('dummy-key-for-tests')],
      ],
      'the provider object suggests the object form first; the refusal brings the string form',
    );
    assert.equal(calls(stateDir, 'initialize').length, 1, 'no restart for an agent method');
    const first = await within('a session', api.newSession());
    await api.stopAgent();
    const second = await within('a session after a restart', api.newSession());
    assert.notEqual(first, second);
    assert.deepEqual(
      calls(stateDir, 'authenticate').map((e) => [e.keyForm, e.apiKey ?? null]),
      [
        ['object', null],
        ['string', digest('dummy-key-for-tests')],
        ['string', digest('dummy-key-for-tests')],
      ],
      'the stored key goes again in the form this agent took, at once',
    );
    assert.deepEqual(
      calls(stateDir, 'session/new').map((e) => e.signedIn),
      [true, false, true],
    );
  });

  it('api-key, Codex 2.6\'s object form: {"api-key": {apiKey}} accepted at once, a session follows', async () => {
    const { stateDir } = await useSignInAgent();
    await within('sign-in', api.signIn('object-key', { 'api-key': 'sk-dummy-object' }));
    assert.deepEqual(
      calls(stateDir, 'authenticate').map((e) => [e.methodId, e.keyForm, e.objectKey]),
      [['object-key', 'object', digest('sk-dummy-object')]],
    );
    assert.ok(await within('a session', api.newSession()));
  });

  it('device code: the URL form shows the code, stays shown once opened, and closes on elicitation/complete', async () => {
    const { stateDir } = await useSignInAgent();
    const signIn = track(api.signIn('device-code'));
    const asking = await waitFor('the URL form', () => api.openForms().find((f) => f.mode === 'url'), 20_000);
    assert.equal(asking.state, 'asking');
    assert.match(asking.message, /WXYZ-1234/, 'the code is shown');
    assert.equal(asking.url, 'https://auth.example.test/device');
    assert.equal(asking.sessionId, undefined, 'a sign-in form belongs to the authenticate request, not to a session');
    assert.ok(api.answerForm(asking.id, 'accept'));
    await waitFor('the agent to get the accept', () => calls(stateDir, 'elicitation/answer').length > 0, 20_000);
    assert.equal(calls(stateDir, 'elicitation/answer')[0]?.action, 'accept');
    assert.deepEqual(
      api.openForms().map((f) => [f.id, f.state]),
      [[asking.id, 'waiting']],
      'accepted, the form stays shown with its code while the person types it elsewhere',
    );
    assert.ok(!signIn.settled(), 'authenticate still runs');
    fs.writeFileSync(path.join(stateDir, 'device-approved'), '');
    await within('sign-in', signIn.promise, 20_000);
    await waitFor('the form to close', () => api.openForms().length === 0, 10_000);
    assert.equal(calls(stateDir, 'elicitation/complete').length, 1);
    assert.ok(await within('a session', api.newSession()));
  });

  it('device code declined: the agent is told, the sign-in fails with its reason, nothing stays open', async () => {
    await useSignInAgent();
    const signIn = track(api.signIn('device-code'));
    const asking = await waitFor('the URL form', () => api.openForms().find((f) => f.mode === 'url'), 20_000);
    assert.ok(api.answerForm(asking.id, 'decline'));
    await assert.rejects(within('sign-in', signIn.promise), /Device code sign-in was not accepted/);
    assert.deepEqual(api.openForms(), []);
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
    assert.equal(calls(stateDir, 'authenticate').length, 2, 'the sign-in\'s two forms, no more: the forgotten key was not sent again');
  });

  it('rejects an unknown method id with the ones the agent offers', async () => {
    await useSignInAgent();
    await assert.rejects(api.signIn('nope'), /no sign-in method "nope" \(it offers: terminal-login, env-token, api-key, gateway, object-key, device-code\)/);
  });
});
