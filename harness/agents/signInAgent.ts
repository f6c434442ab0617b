// A test agent that requires sign-in, for the sign-in integration tests. It speaks ACP by hand
// (newline-delimited JSON-RPC on stdio) so its `initialize` answer is exactly what goes over the
// wire, `env_var` methods included, as Codex sends them.
//
// It offers one method of each kind:
//   terminal-login  type "terminal", args ["--login"]: the client runs this same program with
//                   `--login` in a terminal; it writes the marker `terminal-login.json` in the
//                   state folder and exits with $SIGNIN_AGENT_LOGIN_EXIT (default 0)
//   env-token       type "env_var", vars [SIGNIN_AGENT_TOKEN]: `authenticate` succeeds when the
//                   process was started with the variable
//   api-key         agent method with `_meta["api-key"]` (Gemini's shape): `authenticate` needs
//                   `_meta["api-key"]`
//   gateway         agent method with `_meta.gateway`: `authenticate` needs `_meta.gateway
//                   {baseUrl, headers}`
//   object-key      Codex 2.6's `api-key` (`_meta {"api-key": {provider: "openai"}}`): `authenticate`
//                   reads only `_meta["api-key"].apiKey`; a string there fails -32603 as Codex does
//   device-code     Codex 2.6's "ChatGPT (device code)", only to clients with `elicitation.url`:
//                   during `authenticate` it sends a URL form (`elicitation/create` mode url) with a
//                   code; once accepted it waits for `device-approved` in the state folder (the
//                   person entering the code on the website), sends `elicitation/complete`, answers
// Until signed in, `session/new`, `session/load` and `session/prompt` answer -32000. `logout`
// signs out (and removes the marker). With $SIGNIN_AGENT_NEVER set, no sign-in ever helps.
//
// Every request is appended to `events.jsonl` in the state folder ($SIGNIN_AGENT_STATE), with
// the process id and whether the token variable was set; keys are recorded as a short hash only.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const stateDir = process.env.SIGNIN_AGENT_STATE ?? '';
if (!stateDir) {
  process.stderr.write('SIGNIN_AGENT_STATE is not set\n');
  process.exit(2);
}
fs.mkdirSync(stateDir, { recursive: true });
const marker = path.join(stateDir, 'terminal-login.json');
const record = (event: Record<string, unknown>) => fs.appendFileSync(path.join(stateDir, 'events.jsonl'), JSON.stringify({ pid: process.pid, ...event }) + '\n');
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

if (process.argv.includes('--login')) {
  // The terminal login: a real program in a real terminal (its stdin is a TTY there).
  const exitCode = Number(process.env.SIGNIN_AGENT_LOGIN_EXIT ?? '0');
  process.stdout.write('Signing in to the sign-in test agent…\r\n');
  if (exitCode === 0) fs.writeFileSync(marker, JSON.stringify({ tty: process.stdin.isTTY === true, method: process.env.SIGNIN_AGENT_METHOD_ENV ?? null }));
  record({ method: 'terminal-login', tty: process.stdin.isTTY === true, exitCode });
  process.exit(exitCode);
}

let signedInWith: string | undefined;
const signedIn = () => !process.env.SIGNIN_AGENT_NEVER && (signedInWith !== undefined || fs.existsSync(marker));

type Message = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: Record<string, unknown> };
const send = (message: Record<string, unknown>) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...message }) + '\n');
const authRequired = { code: -32000, message: 'Sign in to the sign-in test agent first.' };

type Answer = { result: unknown } | { error: { code: number; message: string } };

/** Requests this agent sent the client, waiting for their answers. */
const asked = new Map<number, (answer: { result?: unknown; error?: unknown }) => void>();
let nextRequestId = 1;
function ask(method: string, params: Record<string, unknown>): Promise<{ result?: unknown; error?: unknown }> {
  const id = nextRequestId++;
  send({ id, method, params });
  return new Promise((resolve) => asked.set(id, resolve));
}

/** Codex 2.6's device-code login: a URL form with the code, closed by `elicitation/complete`. */
async function deviceCodeLogin(authenticateId: number | string): Promise<Answer> {
  const elicitationId = `login-${process.pid}-${nextRequestId}`;
  const approved = path.join(stateDir, 'device-approved');
  const answer = await ask('elicitation/create', { mode: 'url', requestId: authenticateId, elicitationId, url: 'https://auth.example.test/device', message: 'Sign in and enter this code: WXYZ-1234' });
  const action = (answer.result as { action?: unknown } | undefined)?.action;
  record({ method: 'elicitation/answer', elicitationId, action: action ?? null });
  if (action !== 'accept') {
    send({ method: 'elicitation/complete', params: { elicitationId } });
    return { error: { code: -32603, message: 'Device code sign-in was not accepted.' } };
  }
  while (!fs.existsSync(approved)) await new Promise((r) => setTimeout(r, 50));
  send({ method: 'elicitation/complete', params: { elicitationId } });
  record({ method: 'elicitation/complete', elicitationId });
  signedInWith = 'device-code';
  return { result: {} };
}

function handle(request: Message): Answer | Promise<Answer> {
  const params = request.params ?? {};
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  switch (request.method) {
    case 'initialize': {
      const capabilities = (params.clientCapabilities ?? {}) as { auth?: { terminal?: boolean }; elicitation?: { url?: unknown }; _meta?: Record<string, unknown> };
      record({ method: 'initialize', authTerminal: capabilities.auth?.terminal === true, terminalAuthMeta: capabilities._meta?.['terminal-auth'] === true, token: Boolean(process.env.SIGNIN_AGENT_TOKEN) });
      const methods: unknown[] = [
        { id: 'env-token', name: 'Use SIGNIN_AGENT_TOKEN', description: 'A token in the agent\'s environment.', type: 'env_var', vars: [{ name: 'SIGNIN_AGENT_TOKEN' }] },
        { id: 'api-key', name: 'API key', description: 'A key sent with authenticate.', _meta: { 'api-key': { provider: 'test' } } },
        { id: 'gateway', name: 'Gateway', description: 'A gateway URL and headers.', _meta: { gateway: { protocol: 'test' } } },
        { id: 'object-key', name: 'API Key (object form)', description: 'A key read from _meta["api-key"].apiKey.', _meta: { 'api-key': { provider: 'openai' } } },
      ];
      if (capabilities.elicitation?.url) methods.push({ id: 'device-code', name: 'Device code', description: 'Sign in on a web page with a one-time code.' });
      // Like real agents, a terminal method only for clients that can run one.
      if (capabilities.auth?.terminal === true) {
        methods.unshift({ id: 'terminal-login', name: 'Terminal login', description: 'Runs the login program in a terminal.', type: 'terminal', args: ['--login'], env: { SIGNIN_AGENT_METHOD_ENV: 'terminal-login' } });
      }
      return { result: { protocolVersion: 1, agentCapabilities: { loadSession: false, auth: { logout: {} } }, agentInfo: { name: 'sign-in-test-agent', version: '1.0.0' }, authMethods: methods } };
    }
    case 'authenticate': {
      const methodId = params.methodId;
      const apiKey = typeof meta['api-key'] === 'string' ? meta['api-key'] : undefined;
      const objectKey = typeof (meta['api-key'] as { apiKey?: unknown } | undefined)?.apiKey === 'string' ? (meta['api-key'] as { apiKey: string }).apiKey : undefined;
      const gateway = meta.gateway as { baseUrl?: unknown; headers?: unknown } | undefined;
      record({
        method: 'authenticate',
        methodId,
        ...(apiKey ? { apiKey: digest(apiKey) } : {}),
        ...(objectKey ? { objectKey: digest(objectKey) } : {}),
        ...(meta['api-key'] !== undefined ? { keyForm: typeof meta['api-key'] === 'string' ? 'string' : 'object' } : {}),
        ...(gateway ? { gateway: { baseUrl: gateway.baseUrl, headers: Object.keys((gateway.headers ?? {}) as object) } } : {}),
      });
      switch (methodId) {
        case 'terminal-login':
          return { error: { code: -32602, message: 'A terminal method must not be passed to authenticate.' } };
        case 'env-token':
          if (!process.env.SIGNIN_AGENT_TOKEN) return { error: { code: -32000, message: 'SIGNIN_AGENT_TOKEN is not set.' } };
          break;
        case 'api-key':
          if (!apiKey) return { error: { code: -32000, message: 'No API key in _meta["api-key"].' } };
          break;
        case 'object-key':
          if (!objectKey) return { error: { code: -32603, message: 'CODEX_API_KEY or OPENAI_API_KEY is not set' } };
          break;
        case 'device-code':
          return deviceCodeLogin(request.id!);
        case 'gateway':
          if (typeof gateway?.baseUrl !== 'string' || typeof gateway.headers !== 'object') return { error: { code: -32602, message: 'Malformed gateway payload.' } };
          break;
        default:
          return { error: { code: -32602, message: `Unknown method ${String(methodId)}` } };
      }
      signedInWith = String(methodId);
      return { result: {} };
    }
    case 'logout':
      record({ method: 'logout' });
      signedInWith = undefined;
      fs.rmSync(marker, { force: true });
      return { result: {} };
    case 'session/new':
      record({ method: 'session/new', signedIn: signedIn() });
      return signedIn() ? { result: { sessionId: `signed-in-${process.pid}-${Date.now()}` } } : { error: authRequired };
    case 'session/load':
    case 'session/prompt': {
      record({ method: request.method, signedIn: signedIn() });
      if (!signedIn()) return { error: authRequired };
      if (request.method === 'session/load') return { result: {} };
      send({ method: 'session/update', params: { sessionId: params.sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `signed in with ${signedInWith ?? 'terminal-login'}` } } } });
      return { result: { stopReason: 'end_turn' } };
    }
    case undefined:
    default:
      return { error: { code: -32601, message: `Method not found: ${String(request.method)}` } };
  }
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  buffer += chunk;
  let newline: number;
  while ((newline = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, newline).trim();
    buffer = buffer.slice(newline + 1);
    if (!line) continue;
    const message = JSON.parse(line) as Message & { result?: unknown; error?: unknown };
    if (message.method === undefined && typeof message.id === 'number') {
      asked.get(message.id)?.(message);
      asked.delete(message.id);
      continue;
    }
    if (message.method === undefined || message.id === undefined) continue; // notifications
    const id = message.id;
    void Promise.resolve(handle(message)).then((answer) => send({ id, ...answer }));
  }
});
process.stdin.on('end', () => process.exit(0));
