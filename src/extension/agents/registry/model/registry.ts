/**
 * The ACP Registry (https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json): its
 * format, checked field by field so a bad entry is named and skipped instead of breaking the
 * catalogue, plus the decisions made from it (versions, cache freshness). Pure: no `vscode`, no I/O.
 */

export const REGISTRY_PLATFORMS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type RegistryPlatform = (typeof REGISTRY_PLATFORMS)[number];

export type DistributionKind = 'binary' | 'npx' | 'uvx';
const DISTRIBUTION_KINDS: readonly DistributionKind[] = ['binary', 'npx', 'uvx'];

/** `npx` or `uvx`: a package run by the package manager's runner. */
export interface PackageDistribution {
  package: string;
  /** The program inside the package, when it is not the package's default one. */
  cmd?: string;
  args: string[];
  env: Record<string, string>;
}

/** One platform's build of a `binary` distribution. */
export interface BinaryTarget {
  /** URL of a `.zip`, `.tar.gz`/`.tgz`, `.tar.bz2`/`.tbz2` or of the raw program. */
  archive: string;
  /** The program, relative to the extracted archive (e.g. `./codex-acp`). */
  cmd: string;
  args: string[];
  env: Record<string, string>;
}

export interface RegistryDistribution {
  npx?: PackageDistribution;
  uvx?: PackageDistribution;
  binary?: Partial<Record<RegistryPlatform, BinaryTarget>>;
}

export interface RegistryAgent {
  id: string;
  name: string;
  version: string;
  description: string;
  repository?: string;
  website?: string;
  authors: string[];
  license: string;
  icon?: string;
  distribution: RegistryDistribution;
}

export interface Registry {
  version: string;
  agents: RegistryAgent[];
  /** Entries left out, each with the reason (e.g. `agents[3] ("x").version: expected a string`). */
  problems: string[];
}

/** The registry document as a whole is unusable (not JSON of the expected shape). */
export class RegistryFormatError extends Error {
  override readonly name = 'RegistryFormatError';
}

class EntryError extends Error {}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function field<T>(obj: Json, key: string, where: string, check: (v: unknown) => v is T, expected: string): T {
  const value = obj[key];
  if (!check(value)) throw new EntryError(`${where}.${key}: expected ${expected}`);
  return value;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isNonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

function optionalString(obj: Json, key: string, where: string): string | undefined {
  if (obj[key] === undefined || obj[key] === null) return undefined;
  return field(obj, key, where, isString, 'a string');
}

function stringArray(obj: Json, key: string, where: string): string[] {
  const value = obj[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isString)) throw new EntryError(`${where}.${key}: expected an array of strings`);
  return [...value];
}

function stringRecord(obj: Json, key: string, where: string): Record<string, string> {
  const value = obj[key];
  if (value === undefined) return {};
  if (!isObject(value)) throw new EntryError(`${where}.${key}: expected an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (!isString(v)) throw new EntryError(`${where}.${key}.${k}: expected a string`);
    out[k] = v;
  }
  return out;
}

function parsePackage(value: unknown, where: string): PackageDistribution {
  if (!isObject(value)) throw new EntryError(`${where}: expected an object`);
  const cmd = optionalString(value, 'cmd', where);
  return {
    package: field(value, 'package', where, isNonEmpty, 'a package name'),
    ...(cmd ? { cmd } : {}),
    args: stringArray(value, 'args', where),
    env: stringRecord(value, 'env', where),
  };
}

function parseBinary(value: unknown, where: string): Partial<Record<RegistryPlatform, BinaryTarget>> {
  if (!isObject(value)) throw new EntryError(`${where}: expected an object`);
  const out: Partial<Record<RegistryPlatform, BinaryTarget>> = {};
  for (const [platform, target] of Object.entries(value)) {
    // A platform this client does not know is not an error: newer registries may add some.
    if (!(REGISTRY_PLATFORMS as readonly string[]).includes(platform)) continue;
    const at = `${where}.${platform}`;
    if (!isObject(target)) throw new EntryError(`${at}: expected an object`);
    out[platform as RegistryPlatform] = {
      archive: field(target, 'archive', at, isHttpUrl, 'an http(s) URL'),
      cmd: field(target, 'cmd', at, isNonEmpty, 'a command'),
      args: stringArray(target, 'args', at),
      env: stringRecord(target, 'env', at),
    };
  }
  return out;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function parseAgent(value: unknown, where: string): RegistryAgent {
  if (!isObject(value)) throw new EntryError(`${where}: expected an object`);
  const id = field(value, 'id', where, (v): v is string => typeof v === 'string' && /^[a-z0-9][a-z0-9._-]*$/.test(v), 'an id of lowercase letters, digits, ".", "_" or "-"');
  where = `${where} ("${id}")`;
  const dist = value.distribution;
  if (!isObject(dist)) throw new EntryError(`${where}.distribution: expected an object`);
  const distribution: RegistryDistribution = {};
  if (dist.npx !== undefined) distribution.npx = parsePackage(dist.npx, `${where}.distribution.npx`);
  if (dist.uvx !== undefined) distribution.uvx = parsePackage(dist.uvx, `${where}.distribution.uvx`);
  if (dist.binary !== undefined) distribution.binary = parseBinary(dist.binary, `${where}.distribution.binary`);
  if (!distribution.npx && !distribution.uvx && !distribution.binary) {
    throw new EntryError(`${where}.distribution: none of ${DISTRIBUTION_KINDS.join(', ')}`);
  }
  const repository = optionalString(value, 'repository', where);
  const website = optionalString(value, 'website', where);
  const icon = optionalString(value, 'icon', where);
  return {
    id,
    name: field(value, 'name', where, isNonEmpty, 'a name'),
    version: field(value, 'version', where, isNonEmpty, 'a version'),
    description: optionalString(value, 'description', where) ?? '',
    ...(repository ? { repository } : {}),
    ...(website ? { website } : {}),
    authors: stringArray(value, 'authors', where),
    license: optionalString(value, 'license', where) ?? 'unknown',
    ...(icon ? { icon } : {}),
    distribution,
  };
}

/**
 * Reads a registry document. Throws {@link RegistryFormatError} when the document itself is
 * unusable; an unusable agent entry is left out and named in `problems`; a repeated id keeps the first.
 */
export function parseRegistry(text: string): Registry {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new RegistryFormatError(`The registry is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(doc)) throw new RegistryFormatError('The registry is not a JSON object.');
  if (!Array.isArray(doc.agents)) throw new RegistryFormatError('The registry has no "agents" array.');
  const agents: RegistryAgent[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  doc.agents.forEach((entry, index) => {
    try {
      const agent = parseAgent(entry, `agents[${index}]`);
      if (seen.has(agent.id)) throw new EntryError(`agents[${index}] ("${agent.id}"): the id appears twice`);
      seen.add(agent.id);
      agents.push(agent);
    } catch (error) {
      if (!(error instanceof EntryError)) throw error;
      problems.push(error.message);
    }
  });
  return { version: typeof doc.version === 'string' ? doc.version : 'unknown', agents, problems };
}

/** The registry's name for the platform Node reports, or undefined when it has none. */
export function registryPlatform(platform: string, arch: string): RegistryPlatform | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  return os && cpu ? (`${os}-${cpu}` as RegistryPlatform) : undefined;
}

/** The distributions an agent offers on this platform, best first: a binary needs no runtime. */
export function usableDistributions(agent: RegistryAgent, platform: RegistryPlatform | undefined): DistributionKind[] {
  const kinds: DistributionKind[] = [];
  if (platform && agent.distribution.binary?.[platform]) kinds.push('binary');
  if (agent.distribution.npx) kinds.push('npx');
  if (agent.distribution.uvx) kinds.push('uvx');
  return kinds;
}

/** Every distribution kind the entry lists, whatever the platform. */
export function listedDistributions(agent: RegistryAgent): DistributionKind[] {
  return DISTRIBUTION_KINDS.filter((kind) => agent.distribution[kind] !== undefined);
}

/**
 * Compares versions: numeric dot parts (`1.10.0` > `1.9.2`, missing parts are 0), and a release
 * above its pre-releases (`1.0.0` > `1.0.0-beta.2`). Leading `v` ignored. Negative when a < b.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core = '', pre] = v.trim().replace(/^v/i, '').split(/[-+](.*)/s, 2);
    return { parts: core.split('.').map((p) => Number.parseInt(p, 10) || 0), pre: pre ?? '' };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return d;
  }
  if (x.pre === y.pre) return 0;
  if (!x.pre) return 1;
  if (!y.pre) return -1;
  return x.pre.localeCompare(y.pre, 'en', { numeric: true });
}

/** The installed agents the registry has a newer version of, with that version's entry. */
export function updatesAvailable<T extends { id: string; version: string }>(installed: readonly T[], registry: Registry): { installed: T; latest: RegistryAgent }[] {
  return installed.flatMap((agent) => {
    const latest = registry.agents.find((a) => a.id === agent.id);
    return latest && compareVersions(latest.version, agent.version) > 0 ? [{ installed: agent, latest }] : [];
  });
}

/** How long a fetched registry is used before it is fetched again (in the background). */
export const REGISTRY_TTL_MS = 6 * 60 * 60 * 1000;

export type CacheDecision =
  /** Use the cache; no fetch. */
  | 'fresh'
  /** Use the cache now and fetch in the background. */
  | 'stale'
  /** Nothing usable cached for this URL: fetch now (the shipped snapshot if that fails). */
  | 'missing';

export function cacheDecision(cache: { url: string; fetchedAt: number } | undefined, url: string, now: number, ttlMs = REGISTRY_TTL_MS): CacheDecision {
  if (!cache || cache.url !== url) return 'missing';
  // A clock set back makes the age negative: refresh rather than trust it for ever.
  const age = now - cache.fetchedAt;
  return age >= 0 && age < ttlMs ? 'fresh' : 'stale';
}
