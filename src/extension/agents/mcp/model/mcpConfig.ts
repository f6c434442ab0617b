/**
 * MCP server configurations as users write them, read without VS Code: the `acpNative.mcpServers`
 * setting, and VS Code's own format (`.vscode/mcp.json`, the `mcp` user setting: `servers` by name,
 * `inputs`), JSON with comments and trailing commas. Parsing never throws: an entry that cannot be
 * used becomes a skipped server with the reason, so the user can be told.
 */
// The ESM build: the package's UMD main loads its parts with a dynamic require esbuild cannot follow.
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';

/** Where servers were configured. */
export interface McpSource {
  /** For logs and the Show MCP Servers list, e.g. `/work/app/.vscode/mcp.json`. */
  label: string;
  /** The folder `${workspaceFolder}` stands for, if any. */
  folder?: string;
  /** Keeps answers to `${input:ID}` of different files apart (the SecretStorage key prefix). */
  inputScope: string;
}

/** A server as configured, variables not yet resolved. */
export type McpCandidate =
  | { name: string; source: McpSource; transport: 'stdio'; command: string; args: string[]; env: Record<string, string> }
  | { name: string; source: McpSource; transport: 'http' | 'sse'; url: string; headers: Record<string, string> };

/** An `inputs` entry of VS Code's format: what to ask for `${input:ID}`. */
export interface McpInputSpec {
  id: string;
  /** `promptString` asks for text; `pickString` offers `options`. */
  type: 'promptString' | 'pickString';
  description: string;
  password: boolean;
  default?: string;
  options?: string[];
  /** The input's own scope (its file), for storing the answer. */
  scope: string;
}

export interface SkippedServer {
  name: string;
  source: string;
  reason: string;
}

export interface ParsedSource {
  candidates: McpCandidate[];
  inputs: McpInputSpec[];
  skipped: SkippedServer[];
}

const EMPTY: ParsedSource = { candidates: [], inputs: [], skipped: [] };

/** `acpNative.mcpServers`: an array of `{name, command, args, env}` or `{name, type, url, headers}`. */
export function parseAcpNativeServers(raw: unknown, source: McpSource): ParsedSource {
  if (raw === undefined || raw === null) return EMPTY;
  if (!Array.isArray(raw)) return { ...EMPTY, skipped: [{ name: '(all)', source: source.label, reason: 'the setting is not an array' }] };
  const result: ParsedSource = { candidates: [], inputs: [], skipped: [] };
  raw.forEach((entry, index) => {
    const name = isRecord(entry) && typeof entry.name === 'string' && entry.name.trim() !== '' ? entry.name.trim() : undefined;
    if (name === undefined) {
      result.skipped.push({ name: `#${index + 1}`, source: source.label, reason: 'the entry has no "name"' });
      return;
    }
    addServer(result, name, entry as Record<string, unknown>, source);
  });
  return result;
}

/** VS Code's format: `{servers: {NAME: {type, command, args, env, url, headers}}, inputs: [...]}`. */
export function parseVsCodeMcp(raw: unknown, source: McpSource): ParsedSource {
  if (raw === undefined || raw === null) return EMPTY;
  if (!isRecord(raw)) return { ...EMPTY, skipped: [{ name: '(all)', source: source.label, reason: 'it is not a JSON object' }] };
  const result: ParsedSource = { candidates: [], inputs: parseInputs(raw.inputs, source), skipped: [] };
  const servers = raw.servers;
  if (servers === undefined) return result;
  if (!isRecord(servers)) return { ...result, skipped: [{ name: '(all)', source: source.label, reason: '"servers" is not an object' }] };
  for (const [name, entry] of Object.entries(servers)) addServer(result, name, entry, source);
  return result;
}

/** A `.vscode/mcp.json` file's text (JSONC). A file that does not parse skips all its servers, saying where. */
export function parseMcpJsonText(text: string, source: McpSource): ParsedSource {
  const errors: ParseError[] = [];
  const raw: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined) {
    const line = text.slice(0, first.offset).split('\n').length;
    return { ...EMPTY, skipped: [{ name: '(all)', source: source.label, reason: `the file is not valid JSON: ${printParseErrorCode(first.error)} on line ${line}` }] };
  }
  return parseVsCodeMcp(raw, source);
}

function addServer(result: ParsedSource, name: string, entry: unknown, source: McpSource): void {
  const skip = (reason: string): void => {
    result.skipped.push({ name, source: source.label, reason });
  };
  if (!isRecord(entry)) return skip('the entry is not an object');
  const type = entry.type ?? (typeof entry.url === 'string' && entry.command === undefined ? 'http' : 'stdio');
  if (type === 'stdio') {
    if (typeof entry.command !== 'string' || entry.command.trim() === '') return skip('a stdio server needs a "command"');
    if (entry.envFile !== undefined) return skip('"envFile" is not supported by ACP Native; put the variables in "env"');
    const args = stringArray(entry.args);
    if (args === undefined) return skip('"args" must be an array of strings');
    const env = stringRecord(entry.env);
    if (env === undefined) return skip('"env" must map names to strings');
    result.candidates.push({ name, source, transport: 'stdio', command: entry.command, args, env });
    return;
  }
  if (type === 'http' || type === 'sse') {
    if (typeof entry.url !== 'string' || entry.url.trim() === '') return skip(`an ${type} server needs a "url"`);
    const headers = stringRecord(entry.headers);
    if (headers === undefined) return skip('"headers" must map names to strings');
    result.candidates.push({ name, source, transport: type, url: entry.url, headers });
    return;
  }
  skip(`unknown server type ${JSON.stringify(type)} (ACP carries stdio, http and sse)`);
}

function parseInputs(raw: unknown, source: McpSource): McpInputSpec[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry): McpInputSpec[] => {
    if (!isRecord(entry) || typeof entry.id !== 'string') return [];
    const type = entry.type === 'pickString' ? 'pickString' : 'promptString';
    return [
      {
        id: entry.id,
        type,
        description: typeof entry.description === 'string' ? entry.description : entry.id,
        password: entry.password === true,
        ...(typeof entry.default === 'string' ? { default: entry.default } : {}),
        ...(type === 'pickString' ? { options: (stringArray(entry.options) ?? []) } : {}),
        scope: source.inputScope,
      },
    ];
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringArray(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return undefined;
  return value.every((v) => typeof v === 'string') ? value : undefined;
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    // Numbers and booleans are what a user means as text (`"PORT": 8080`).
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else if (v !== null) return undefined;
  }
  return out;
}
