/**
 * From configured MCP servers to what each agent is sent: variables resolved
 * (`${workspaceFolder}`, `${userHome}`, `${env:NAME}`, `${input:ID}`), duplicates dropped, the ACP
 * shapes (`env`/`headers` as `[{name, value}]`), and only the transports the agent advertises
 * (`mcpCapabilities.http` / `.sse`; stdio always). Every server left out says why.
 */
import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk';
import type { McpCandidate, McpInputSpec, ParsedSource, SkippedServer } from './mcpConfig';

export interface VariableContext {
  userHome: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Answers to `${input:ID}`, by scope and id (see `inputKey`). */
  inputs: ReadonlyMap<string, string>;
  pathSeparator: string;
}

/** What the workspace and the user configured, before variables: the servers in order of precedence. */
export interface McpConfiguration {
  candidates: McpCandidate[];
  inputs: McpInputSpec[];
  skipped: SkippedServer[];
}

/** Sources in order of precedence: a later server with a name already taken is skipped. */
export function combineSources(sources: readonly ParsedSource[]): McpConfiguration {
  const out: McpConfiguration = { candidates: [], inputs: [], skipped: [] };
  const seen = new Map<string, string>();
  for (const source of sources) {
    out.inputs.push(...source.inputs);
    out.skipped.push(...source.skipped);
    for (const candidate of source.candidates) {
      const first = seen.get(candidate.name);
      if (first !== undefined) {
        out.skipped.push({ name: candidate.name, source: candidate.source.label, reason: `a server of that name comes first from ${first}` });
        continue;
      }
      seen.set(candidate.name, candidate.source.label);
      out.candidates.push(candidate);
    }
  }
  return out;
}

export function inputKey(scope: string, id: string): string {
  return `${scope}\u0000${id}`;
}

const VARIABLE = /\$\{([^}]*)\}/g;

/** The `${input:ID}`s a server uses, so the client can ask for them before resolving. */
export function inputsUsed(candidate: McpCandidate): string[] {
  const ids = new Set<string>();
  for (const text of candidateStrings(candidate)) {
    for (const match of text.matchAll(VARIABLE)) {
      const name = match[1] ?? '';
      if (name.startsWith('input:')) ids.add(name.slice('input:'.length));
    }
  }
  return [...ids];
}

/** A server with every variable replaced, or the reason it cannot be. */
export function resolveCandidate(candidate: McpCandidate, ctx: VariableContext): { ok: true; server: McpCandidate } | { ok: false; reason: string } {
  try {
    const r = (text: string): string => resolveText(text, candidate, ctx);
    const mapValues = (record: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, r(v)]));
    if (candidate.transport === 'stdio') {
      return { ok: true, server: { ...candidate, command: r(candidate.command), args: candidate.args.map(r), env: mapValues(candidate.env) } };
    }
    const url = r(candidate.url);
    if (!/^https?:\/\//i.test(url)) return { ok: false, reason: `its url ${JSON.stringify(url)} is not http(s)` };
    return { ok: true, server: { ...candidate, url, headers: mapValues(candidate.headers) } };
  } catch (error) {
    if (error instanceof UnresolvedVariable) return { ok: false, reason: error.message };
    throw error;
  }
}

class UnresolvedVariable extends Error {}

function resolveText(text: string, candidate: McpCandidate, ctx: VariableContext): string {
  return text.replace(VARIABLE, (whole, name: string) => {
    if (name === 'workspaceFolder' || name === 'workspaceFolderBasename') {
      const folder = candidate.source.folder;
      if (folder === undefined) throw new UnresolvedVariable(`it uses ${whole}, but no workspace folder is open`);
      return name === 'workspaceFolder' ? folder : (folder.split(/[\\/]/).filter(Boolean).pop() ?? folder);
    }
    if (name === 'userHome') return ctx.userHome;
    if (name === 'pathSeparator' || name === '/') return ctx.pathSeparator;
    // As in VS Code, an unset environment variable is the empty string.
    if (name.startsWith('env:')) return ctx.env[name.slice('env:'.length)] ?? '';
    if (name.startsWith('input:')) {
      const id = name.slice('input:'.length);
      const value = ctx.inputs.get(inputKey(candidate.source.inputScope, id));
      if (value === undefined) throw new UnresolvedVariable(`its input "${id}" has no answer (not defined in "inputs", or the question was dismissed)`);
      return value;
    }
    throw new UnresolvedVariable(`it uses ${whole}, a variable ACP Native does not resolve`);
  });
}

function candidateStrings(c: McpCandidate): string[] {
  return c.transport === 'stdio' ? [c.command, ...c.args, ...Object.values(c.env)] : [c.url, ...Object.values(c.headers)];
}

/** The ACP shape of a resolved server. */
export function toAcpServer(server: McpCandidate): McpServer {
  if (server.transport === 'stdio') {
    return { name: server.name, command: server.command, args: server.args, env: Object.entries(server.env).map(([name, value]) => ({ name, value })) };
  }
  return { type: server.transport, name: server.name, url: server.url, headers: Object.entries(server.headers).map(([name, value]) => ({ name, value })) };
}

/** What one agent gets: stdio always, http and sse only when it says it takes them. */
export function serversForAgent(
  servers: readonly { server: McpServer; source: string }[],
  capabilities: McpCapabilities | null | undefined,
  agentName: string,
): { servers: McpServer[]; skipped: SkippedServer[] } {
  const out: { servers: McpServer[]; skipped: SkippedServer[] } = { servers: [], skipped: [] };
  for (const { server, source } of servers) {
    const transport = 'type' in server ? server.type : 'stdio';
    if (transport === 'stdio' || capabilities?.[transport] === true) out.servers.push(server);
    else out.skipped.push({ name: server.name, source, reason: `agent "${agentName}" does not take MCP servers over ${transport} (mcpCapabilities.${transport})` });
  }
  return out;
}
