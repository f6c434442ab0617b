import { assertNever } from '../../../../protocol/assertNever';

/**
 * Sign-in, the pure half: what an agent's `authMethods` mean, what to run or send for each, and
 * the retry policy around a request the agent refused with "auth required".
 *
 * The methods are read from the `initialize` response as it came over the wire: the SDK's schema
 * knows only `agent` and `terminal`, and its parse turns Codex's `env_var` methods into plain
 * agent methods without their `vars`.
 */

/** JSON-RPC error code of "authentication required" (the SDK's `RequestError.authRequired()`). */
export const AUTH_REQUIRED = -32000;

/** What `_meta["terminal-auth"]` names: the exact program to run for a terminal method. */
export const TERMINAL_AUTH_META = 'terminal-auth';

interface MethodBase {
  id: string;
  name: string;
  description?: string;
}

/** The client runs the agent's own program in an interactive terminal; exit 0 means signed in. */
export interface TerminalMethod extends MethodBase {
  type: 'terminal';
  /** Appended to the agent's launch command. */
  args: string[];
  env: Record<string, string>;
  /** The exact program to run, when the agent names it (`_meta["terminal-auth"]`). */
  program?: { command: string; args: string[]; env: Record<string, string> };
}

export interface EnvVarSpec {
  name: string;
  label?: string;
  optional: boolean;
}

/** The client puts these variables in the agent's environment (a restart), then `authenticate`s. */
export interface EnvVarMethod extends MethodBase {
  type: 'env_var';
  vars: EnvVarSpec[];
}

/** What an agent method needs from the user before `authenticate`. */
export type AgentMethodInput = { kind: 'api-key'; describesProvider: boolean } | { kind: 'gateway' } | { kind: 'plain' };

/**
 * How an API key travels in `authenticate`'s `_meta["api-key"]`: Codex 2.6 reads an object
 * `{apiKey: KEY}`, Gemini CLI only a string `KEY`, and nothing in `authMethods` says which.
 */
export type ApiKeyForm = 'object' | 'string';

/** The agent signs in itself when asked (`authenticate`), perhaps with a key or a gateway. */
export interface AgentMethod extends MethodBase {
  type: 'agent';
  input: AgentMethodInput;
}

export type AuthMethod = TerminalMethod | EnvVarMethod | AgentMethod;
export type AuthMethodType = AuthMethod['type'];

export interface ParsedAuthMethods {
  methods: AuthMethod[];
  /** Methods of a type this client does not know, by id: left out rather than guessed at. */
  skipped: string[];
}

/** Reads `authMethods` as the agent sent them. Malformed entries are skipped, never thrown on. */
export function parseAuthMethods(raw: unknown): ParsedAuthMethods {
  const methods: AuthMethod[] = [];
  const skipped: string[] = [];
  if (!Array.isArray(raw)) return { methods, skipped };
  const seen = new Set<string>();
  for (const entry of raw) {
    if (!isRecord(entry) || typeof entry.id !== 'string' || !entry.id || seen.has(entry.id)) continue;
    seen.add(entry.id);
    const base: MethodBase = {
      id: entry.id,
      name: typeof entry.name === 'string' && entry.name ? entry.name : entry.id,
      ...(typeof entry.description === 'string' && entry.description.trim() ? { description: entry.description.trim() } : {}),
    };
    const meta = isRecord(entry._meta) ? entry._meta : {};
    // A method without a type is an agent method (the spec's default).
    const type = entry.type ?? 'agent';
    if (type === 'terminal') {
      const program = terminalProgram(meta[TERMINAL_AUTH_META]);
      methods.push({ ...base, type, args: stringArray(entry.args), env: stringRecord(entry.env), ...(program ? { program } : {}) });
    } else if (type === 'env_var') {
      const vars = (Array.isArray(entry.vars) ? entry.vars : []).flatMap((v): EnvVarSpec[] => {
        if (!isRecord(v) || typeof v.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v.name)) return [];
        return [{ name: v.name, optional: v.optional === true, ...(typeof v.label === 'string' && v.label ? { label: v.label } : {}) }];
      });
      if (vars.length) methods.push({ ...base, type, vars });
      else skipped.push(entry.id);
    } else if (type === 'agent') {
      const apiKey = meta['api-key'];
      const input: AgentMethodInput = apiKey !== undefined ? { kind: 'api-key', describesProvider: isRecord(apiKey) && typeof apiKey.provider === 'string' } : meta.gateway !== undefined ? { kind: 'gateway' } : { kind: 'plain' };
      methods.push({ ...base, type, input });
    } else {
      skipped.push(entry.id);
    }
  }
  return { methods, skipped };
}

export interface Program {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The program a terminal method runs: the one the agent names in `_meta["terminal-auth"]`, else
 * the agent's own launch with the method's args appended (what the spec and Claude's adapter
 * expect: `npx -y @agentclientprotocol/claude-agent-acp --cli auth login --claudeai`). The
 * method's env overrides the launch's.
 */
export function terminalLoginProgram(method: TerminalMethod, launch: Program): Program {
  if (method.program) {
    return { command: method.program.command, args: method.program.args, env: { ...launch.env, ...method.program.env, ...method.env } };
  }
  return { command: launch.command, args: [...launch.args, ...method.args], env: { ...launch.env, ...method.env } };
}

/** What the user (or the API caller) gives to sign in with a method. */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'env'; env: Record<string, string> }
  | { kind: 'api-key'; key: string }
  | { kind: 'gateway'; baseUrl: string; headers: Record<string, string> };

/** What a method asks for, so the UI knows which inputs to show. */
export type CredentialsNeeded = Credentials['kind'];

export function credentialsNeeded(method: AuthMethod): CredentialsNeeded {
  switch (method.type) {
    case 'terminal':
      return 'none';
    case 'env_var':
      return 'env';
    case 'agent':
      switch (method.input.kind) {
        case 'api-key':
          return 'api-key';
        case 'gateway':
          return 'gateway';
        case 'plain':
          return 'none';
        default:
          return assertNever(method.input, 'agent method input');
      }
    default:
      return assertNever(method, 'auth method');
  }
}

/**
 * The credentials an API caller gives, checked against what the method needs:
 * `{VAR: value}` for env_var methods, `{"api-key": KEY}` for an API-key method, `{baseUrl,
 * headers}` (headers a JSON object string) for a gateway. Undefined when nothing was given.
 */
export function credentialsFromSecret(method: AuthMethod, secret: Record<string, string> | undefined): Credentials | undefined {
  const needed = credentialsNeeded(method);
  if (needed === 'none') return { kind: 'none' };
  if (!secret) return undefined;
  switch (needed) {
    case 'env': {
      const vars = method.type === 'env_var' ? method.vars : [];
      const env: Record<string, string> = {};
      for (const v of vars) {
        const value = secret[v.name];
        if (typeof value === 'string' && value) env[v.name] = value;
        else if (!v.optional) throw new Error(`Sign-in with "${method.name}" needs ${v.name}.`);
      }
      return { kind: 'env', env };
    }
    case 'api-key': {
      const key = secret['api-key'];
      if (typeof key !== 'string' || !key) throw new Error(`Sign-in with "${method.name}" needs an "api-key".`);
      return { kind: 'api-key', key };
    }
    case 'gateway': {
      const baseUrl = checkBaseUrl(secret.baseUrl);
      return { kind: 'gateway', baseUrl, headers: parseHeaders(secret.headers ?? '') };
    }
    default:
      return assertNever(needed, 'credentials');
  }
}

/** What ACP Native keeps of an agent's sign-in (in secret storage): the method and what was given. */
export interface StoredSignIn {
  methodId: string;
  credentials: Credentials;
  /** The key's form this agent accepted, so the next sign-in sends it first. */
  apiKeyForm?: ApiKeyForm;
}

/** A stored value read back defensively: anything malformed counts as nothing stored. */
export function parseStoredSignIn(text: string | undefined): StoredSignIn | undefined {
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { methodId, credentials, apiKeyForm } = value as { methodId?: unknown; credentials?: unknown; apiKeyForm?: unknown };
  if (typeof methodId !== 'string' || typeof credentials !== 'object' || credentials === null) return undefined;
  const c = credentials as Record<string, unknown>;
  switch (c.kind) {
    case 'env':
      return isStringRecord(c.env) ? { methodId, credentials: { kind: 'env', env: c.env } } : undefined;
    case 'api-key':
      return typeof c.key === 'string'
        ? { methodId, credentials: { kind: 'api-key', key: c.key }, ...(apiKeyForm === 'object' || apiKeyForm === 'string' ? { apiKeyForm } : {}) }
        : undefined;
    case 'gateway':
      return typeof c.baseUrl === 'string' && isStringRecord(c.headers)
        ? { methodId, credentials: { kind: 'gateway', baseUrl: c.baseUrl, headers: c.headers } }
        : undefined;
    default:
      return undefined;
  }
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string');
}

/** A gateway's base URL: an absolute http(s) URL. Throws with a readable reason. */
export function checkBaseUrl(value: unknown): string {
  if (typeof value !== 'string' || !value.trim()) throw new Error('A gateway needs a base URL.');
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`"${value}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('A gateway URL starts with http:// or https://.');
  return value.trim();
}

/** Gateway headers from a JSON object of strings; empty text means none. */
export function parseHeaders(text: string): Record<string, string> {
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('Headers must be a JSON object, e.g. {"Authorization": "Bearer …"}.');
  }
  if (!isRecord(parsed) || Array.isArray(parsed)) throw new Error('Headers must be a JSON object, e.g. {"Authorization": "Bearer …"}.');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw new Error(`Header "${name}" must be a string.`);
    headers[name] = value;
  }
  return headers;
}

/**
 * The forms of the key to try, in order: the one this agent accepted before, else the object form
 * first when the method describes its key as an object (`{provider}`, as Codex 2.6 and Gemini CLI
 * both do), else the string form; the other form follows as the fallback when the agent refuses.
 */
export function apiKeyForms(method: AuthMethod, remembered?: ApiKeyForm): ApiKeyForm[] {
  const first: ApiKeyForm = remembered ?? (method.type === 'agent' && method.input.kind === 'api-key' && method.input.describesProvider ? 'object' : 'string');
  return first === 'object' ? ['object', 'string'] : ['string', 'object'];
}

/**
 * The `_meta` of `authenticate` that carries the credentials: a key as `{"api-key": {apiKey}}`
 * (Codex 2.6) or `{"api-key": KEY}` (Gemini CLI), a gateway as `{gateway: {baseUrl, headers}}`.
 */
export function authenticateMeta(credentials: Credentials, form: ApiKeyForm = 'string'): Record<string, unknown> | undefined {
  switch (credentials.kind) {
    case 'none':
    case 'env':
      return undefined;
    case 'api-key':
      return { 'api-key': form === 'object' ? { apiKey: credentials.key } : credentials.key };
    case 'gateway':
      return { gateway: { baseUrl: credentials.baseUrl, headers: credentials.headers } };
    default:
      return assertNever(credentials, 'credentials');
  }
}

/** True when a request failed because the agent wants the user signed in. */
export function isAuthRequired(error: unknown): boolean {
  return isRecord(error) && error.code === AUTH_REQUIRED;
}

/** The method a sign-in used, so a second refusal can say which one was tried. */
export interface SignedIn {
  methodName: string;
}

export class StillNotSignedInError extends Error {
  constructor(
    readonly methodName: string,
    readonly refusal: unknown,
  ) {
    super(`The agent still asks for sign-in after signing in with "${methodName}": ${errorText(refusal)}`);
  }
}

/** Refusals whose sign-in the user dismissed. */
const declined = new WeakSet<object>();

/**
 * Runs `attempt`; when the agent answers "auth required", signs in once and runs it again, once.
 * A second refusal is an error naming the method that was tried: never a loop. When `signIn`
 * gives up (the user dismissed the choice), the agent's own error stands.
 */
export async function retryAfterSignIn<T>(attempt: () => Promise<T>, signIn: (error: unknown) => Promise<SignedIn | undefined>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    // A refusal that already had its sign-in (an inner request's) is not asked about twice.
    if (!isAuthRequired(error) || declined.has(error as object)) throw error;
    const signedIn = await signIn(error);
    if (!signedIn) {
      declined.add(error as object);
      throw error;
    }
    try {
      return await attempt();
    } catch (again) {
      if (isAuthRequired(again)) throw new StillNotSignedInError(signedIn.methodName, again);
      throw again;
    }
  }
}

/** A one-line description of a method for pickers: what will happen when it is chosen. */
export function methodHint(method: AuthMethod): string {
  switch (method.type) {
    case 'terminal':
      return 'opens a terminal';
    case 'env_var':
      return `asks for ${method.vars.map((v) => v.name).join(', ')}`;
    case 'agent':
      switch (method.input.kind) {
        case 'api-key':
          return 'asks for an API key';
        case 'gateway':
          return 'asks for a gateway URL and headers';
        case 'plain':
          return 'the agent signs in';
        default:
          return assertNever(method.input, 'agent method input');
      }
    default:
      return assertNever(method, 'auth method');
  }
}

function terminalProgram(value: unknown): TerminalMethod['program'] {
  if (!isRecord(value) || typeof value.command !== 'string' || !value.command) return undefined;
  return { command: value.command, args: stringArray(value.args), env: stringRecord(value.env) };
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function errorText(error: unknown): string {
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return String(error);
}
