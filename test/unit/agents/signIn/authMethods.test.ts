import * as assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import {
  apiKeyForms,
  authenticateMeta,
  credentialsFromSecret,
  parseAuthMethods,
  parseHeaders,
  parseStoredSignIn,
  retryAfterSignIn,
  StillNotSignedInError,
  terminalLoginProgram,
  type AuthMethod,
  type TerminalMethod,
} from '../../../../src/extension/agents/signIn/model/authMethods';

// What the real agents send (recorded from Codex 0.16.0, Gemini CLI 0.61.0 and Claude's adapter).
const CODEX = [
  { id: 'chatgpt', name: 'Login with ChatGPT', description: 'Use your ChatGPT login with Codex CLI (requires a paid ChatGPT subscription)' },
  { type: 'env_var', id: 'codex-api-key', name: 'Use CODEX_API_KEY', description: 'Requires setting the `CODEX_API_KEY` environment variable.', vars: [{ name: 'CODEX_API_KEY' }] },
  { type: 'env_var', id: 'openai-api-key', name: 'Use OPENAI_API_KEY', vars: [{ name: 'OPENAI_API_KEY' }] },
];
const GEMINI = [
  { id: 'oauth-personal', name: 'Log in with Google', description: 'Log in with your Google account' },
  { id: 'gemini-api-key', name: 'Gemini API key', _meta: { 'api-key': { provider: 'google' } } },
  { id: 'vertex-ai', name: 'Vertex AI' },
  { id: 'gateway', name: 'AI API Gateway', _meta: { gateway: { protocol: 'google', restartRequired: 'false' } } },
];
const CLAUDE = [
  {
    id: 'claude-ai-login',
    name: 'Claude Subscription',
    type: 'terminal',
    args: ['--cli', 'auth', 'login', '--claudeai'],
    _meta: { 'terminal-auth': { command: '/usr/bin/node', args: ['/x/claude-agent-acp', '--cli', 'auth', 'login', '--claudeai'], label: 'Claude Login' } },
  },
  { id: 'claude-login', name: 'Log in with Claude', type: 'terminal', args: ['--cli'] },
];

const shape = (methods: AuthMethod[]) => methods.map((m) => [m.id, m.type, m.type === 'agent' ? m.input.kind : m.type === 'env_var' ? m.vars.map((v) => v.name).join() : m.args.join(' ')]);

describe('sign-in methods as agents send them', () => {
  it('reads Codex: a plain agent method and env_var methods with their variables', () => {
    assert.deepEqual(shape(parseAuthMethods(CODEX).methods), [
      ['chatgpt', 'agent', 'plain'],
      ['codex-api-key', 'env_var', 'CODEX_API_KEY'],
      ['openai-api-key', 'env_var', 'OPENAI_API_KEY'],
    ]);
  });

  it('reads Gemini: methods without a type are agent methods; api-key and gateway from _meta', () => {
    assert.deepEqual(shape(parseAuthMethods(GEMINI).methods), [
      ['oauth-personal', 'agent', 'plain'],
      ['gemini-api-key', 'agent', 'api-key'],
      ['vertex-ai', 'agent', 'plain'],
      ['gateway', 'agent', 'gateway'],
    ]);
  });

  it('reads Claude: terminal methods, with the exact program from _meta["terminal-auth"]', () => {
    const [subscription, remote] = parseAuthMethods(CLAUDE).methods as TerminalMethod[];
    assert.deepEqual(subscription?.program, { command: '/usr/bin/node', args: ['/x/claude-agent-acp', '--cli', 'auth', 'login', '--claudeai'], env: {} });
    assert.equal(remote?.program, undefined);
    assert.deepEqual(remote?.args, ['--cli']);
  });

  it('leaves out unknown types, env_var methods without variables, duplicates and junk, without throwing', () => {
    const { methods, skipped } = parseAuthMethods([
      { id: 'future', name: 'Future', type: 'qr_code' },
      { id: 'empty', type: 'env_var', vars: [{ name: 'not a name' }] },
      { id: 'ok', name: 'OK' },
      { id: 'ok', name: 'duplicate' },
      null,
      'text',
      { name: 'no id' },
    ]);
    assert.deepEqual(
      methods.map((m) => m.id),
      ['ok'],
    );
    assert.deepEqual(skipped, ['future', 'empty']);
    assert.deepEqual(parseAuthMethods(undefined), { methods: [], skipped: [] });
  });
});

describe('the SDK client and authMethods', () => {
  it('hands initialize\'s result over as it came over the wire, env_var type and vars included', async () => {
    // AgentConnection reads authMethods from the SDK's answer; should an SDK update start parsing
    // it (its schema knows only agent and terminal methods), Codex's env_var methods would lose
    // their type and vars: this test then fails, and a tap on the raw bytes is needed.
    const encoder = new TextEncoder();
    let reply: (text: string) => void = () => undefined;
    const fromAgent = new ReadableStream<Uint8Array>({ start: (c) => void (reply = (text) => c.enqueue(encoder.encode(text + '\n'))) });
    const toAgent = new WritableStream<Uint8Array>({
      write(chunk) {
        const request = JSON.parse(new TextDecoder().decode(chunk)) as { id: number; method: string };
        if (request.method === 'initialize') reply(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { protocolVersion: 1, authMethods: CODEX } }));
      },
    });
    const connection = acp.client({ name: 'test' }).connect(acp.ndJsonStream(toAgent, fromAgent));
    const response = await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    connection.close();
    assert.deepEqual(shape(parseAuthMethods((response as { authMethods?: unknown }).authMethods).methods), [
      ['chatgpt', 'agent', 'plain'],
      ['codex-api-key', 'env_var', 'CODEX_API_KEY'],
      ['openai-api-key', 'env_var', 'OPENAI_API_KEY'],
    ]);
  });
});

describe('the terminal login program', () => {
  const launch = { command: 'npx', args: ['-y', '@agentclientprotocol/claude-agent-acp'], env: { A: '1', B: 'launch' } };

  it('appends the method args to the agent\'s own launch, the method env over the launch env', () => {
    const [method] = parseAuthMethods([{ id: 'l', name: 'L', type: 'terminal', args: ['--cli', 'auth', 'login'], env: { B: 'method' } }]).methods as TerminalMethod[];
    assert.deepEqual(terminalLoginProgram(method!, launch), {
      command: 'npx',
      args: ['-y', '@agentclientprotocol/claude-agent-acp', '--cli', 'auth', 'login'],
      env: { A: '1', B: 'method' },
    });
  });

  it('runs exactly the program _meta["terminal-auth"] names when the agent gives one', () => {
    const [method] = parseAuthMethods(CLAUDE).methods as TerminalMethod[];
    const program = terminalLoginProgram(method!, launch);
    assert.equal(program.command, '/usr/bin/node');
    assert.deepEqual(program.args, ['/x/claude-agent-acp', '--cli', 'auth', 'login', '--claudeai']);
    assert.deepEqual(program.env, launch.env);
  });
});

describe('credentials given to signIn', () => {
  const methods = parseAuthMethods([...CODEX, ...GEMINI.slice(1), CLAUDE[0]]).methods;
  const byId = (id: string) => methods.find((m) => m.id === id)!;

  it('takes env_var secrets by variable name, and refuses a missing required one', () => {
    assert.deepEqual(credentialsFromSecret(byId('codex-api-key'), { CODEX_API_KEY: 'k' }), { kind: 'env', env: { CODEX_API_KEY: 'k' } });
    assert.throws(() => credentialsFromSecret(byId('codex-api-key'), { OPENAI_API_KEY: 'k' }), /needs CODEX_API_KEY/);
    assert.equal(credentialsFromSecret(byId('codex-api-key'), undefined), undefined, 'nothing given: ask');
  });

  it('sends an API key and a gateway in authenticate\'s _meta, as Gemini CLI reads them', () => {
    const key = credentialsFromSecret(byId('gemini-api-key'), { 'api-key': 'k' })!;
    assert.deepEqual(authenticateMeta(key), { 'api-key': 'k' });
    const gateway = credentialsFromSecret(byId('gateway'), { baseUrl: 'https://gw.example/v1', headers: '{"Authorization":"Bearer t"}' })!;
    assert.deepEqual(authenticateMeta(gateway), { gateway: { baseUrl: 'https://gw.example/v1', headers: { Authorization: 'Bearer t' } } });
  });

  it('sends the key as Codex 2.6 reads it ({apiKey}) or as Gemini does (a string), object first when the method describes a provider', () => {
    const codex26 = parseAuthMethods([{ id: 'api-key', name: 'API Key', _meta: { 'api-key': { provider: 'openai' } } }]).methods[0]!;
    const bare = parseAuthMethods([{ id: 'key', name: 'Key', _meta: { 'api-key': true } }]).methods[0]!;
    const key = { kind: 'api-key', key: 'sk-1' } as const;
    assert.deepEqual(authenticateMeta(key, 'object'), { 'api-key': { apiKey: 'sk-1' } });
    assert.deepEqual(authenticateMeta(key, 'string'), { 'api-key': 'sk-1' });
    assert.deepEqual(apiKeyForms(codex26), ['object', 'string']);
    assert.deepEqual(apiKeyForms(byId('gemini-api-key')), ['object', 'string'], 'Gemini also describes a provider: the string form is its fallback');
    assert.deepEqual(apiKeyForms(bare), ['string', 'object'], 'no provider object: the string form first');
    assert.deepEqual(apiKeyForms(codex26, 'string'), ['string', 'object'], 'what the agent accepted before comes first');
  });

  it('keeps the key form an agent accepted with its stored credentials', () => {
    const stored = { methodId: 'api-key', credentials: { kind: 'api-key', key: 'k' }, apiKeyForm: 'object' } as const;
    assert.deepEqual(parseStoredSignIn(JSON.stringify(stored)), stored);
    assert.deepEqual(parseStoredSignIn(JSON.stringify({ ...stored, apiKeyForm: 'xml' })), { methodId: 'api-key', credentials: { kind: 'api-key', key: 'k' } });
  });

  it('refuses a malformed gateway with a readable reason', () => {
    assert.throws(() => credentialsFromSecret(byId('gateway'), { baseUrl: 'ftp://x' }), /http/);
    assert.throws(() => credentialsFromSecret(byId('gateway'), { baseUrl: 'not a url' }), /not a URL/);
    assert.throws(() => parseHeaders('[1]'), /JSON object/);
    assert.throws(() => parseHeaders('{"a": 1}'), /"a" must be a string/);
    assert.deepEqual(parseHeaders(''), {});
  });

  it('needs nothing for terminal and plain agent methods, and sends no _meta for them', () => {
    assert.deepEqual(credentialsFromSecret(byId('claude-ai-login'), undefined), { kind: 'none' });
    assert.deepEqual(credentialsFromSecret(byId('chatgpt'), undefined), { kind: 'none' });
    assert.equal(authenticateMeta({ kind: 'none' }), undefined);
    assert.equal(authenticateMeta({ kind: 'env', env: { A: 'b' } }), undefined, 'env vars travel in the environment, never in the protocol');
  });

  it('reads stored credentials back defensively', () => {
    assert.deepEqual(parseStoredSignIn(JSON.stringify({ methodId: 'm', credentials: { kind: 'env', env: { A: 'b' } } })), { methodId: 'm', credentials: { kind: 'env', env: { A: 'b' } } });
    for (const bad of [undefined, '', '{', '[]', '{"methodId":1}', '{"methodId":"m","credentials":{"kind":"env","env":{"A":2}}}', '{"methodId":"m","credentials":{"kind":"magic"}}']) {
      assert.equal(parseStoredSignIn(bad), undefined, String(bad));
    }
  });
});

describe('retry after sign-in', () => {
  const authRequired = () => acp.RequestError.authRequired();

  it('signs in once on -32000 and retries once', async () => {
    let attempts = 0;
    let signIns = 0;
    const result = await retryAfterSignIn(
      async () => {
        if (attempts++ === 0) throw authRequired();
        return 'session';
      },
      async () => {
        signIns++;
        return { methodName: 'Terminal login' };
      },
    );
    assert.equal(result, 'session');
    assert.deepEqual([attempts, signIns], [2, 1]);
  });

  it('never loops: a second -32000 is an error naming the method tried', async () => {
    let attempts = 0;
    let signIns = 0;
    await assert.rejects(
      retryAfterSignIn(
        async () => {
          attempts++;
          throw authRequired();
        },
        async () => {
          signIns++;
          return { methodName: 'Use CODEX_API_KEY' };
        },
      ),
      (error: unknown) => error instanceof StillNotSignedInError && /after signing in with "Use CODEX_API_KEY"/.test(error.message),
    );
    assert.deepEqual([attempts, signIns], [2, 1]);
  });

  it('keeps the agent\'s error when the user dismisses the sign-in, and an outer retry does not ask again', async () => {
    let signIns = 0;
    const inner = () =>
      retryAfterSignIn(
        async () => {
          throw authRequired();
        },
        async () => {
          signIns++;
          return undefined;
        },
      );
    // A prompt that starts a session: both layers retry after sign-in.
    await assert.rejects(
      retryAfterSignIn(inner, async () => {
        signIns++;
        return { methodName: 'x' };
      }),
      (error: unknown) => (error as { code?: number }).code === -32000,
    );
    assert.equal(signIns, 1);
  });

  it('passes other errors through without signing in, and a failed sign-in fails the request', async () => {
    let signIns = 0;
    await assert.rejects(
      retryAfterSignIn(
        async () => {
          throw acp.RequestError.internalError(undefined, 'boom');
        },
        async () => {
          signIns++;
          return { methodName: 'x' };
        },
      ),
      /boom|Internal/,
    );
    assert.equal(signIns, 0);
    await assert.rejects(
      retryAfterSignIn(
        async () => {
          throw authRequired();
        },
        async () => {
          throw new Error('the login program exited with code 1');
        },
      ),
      /exited with code 1/,
    );
  });
});
