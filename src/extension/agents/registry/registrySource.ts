/**
 * Where the catalogue comes from: the registry URL, fetched with Node's `fetch` and cached in global
 * storage for a few hours (used at once, refreshed in the background when older), and the snapshot
 * shipped in the VSIX when the network cannot be reached. No `vscode` here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cacheDecision, parseRegistry, REGISTRY_TTL_MS, type Registry } from './model/registry';
import { errorMessage, type Logger } from '../../base/log';

export type RegistryOrigin = 'network' | 'cache' | 'snapshot';

export interface LoadedRegistry {
  registry: Registry;
  origin: RegistryOrigin;
  /** The URL it was fetched from (for the snapshot: the URL that could not be reached). */
  url: string;
  /** When it was fetched; for the snapshot, the day it was assembled. */
  date: Date;
  /** Why the network was not used, when the snapshot stands in. */
  offlineReason?: string;
}

interface CacheFile {
  url: string;
  fetchedAt: number;
  text: string;
}

const FETCH_TIMEOUT_MS = 15_000;

export class RegistrySource {
  private refreshing: Promise<LoadedRegistry> | undefined;

  constructor(
    private readonly deps: {
      /** A folder of its own in global storage. */
      cacheDir: string;
      /** The registry snapshot shipped with the extension. */
      snapshotFile: string;
      url: () => string;
      log: Pick<Logger, 'info' | 'warn'>;
      /** Called with each registry fetched in the background (e.g. to offer updates). */
      onBackgroundRefresh?: (loaded: LoadedRegistry) => void;
      now?: () => number;
      ttlMs?: number;
    },
  ) {}

  private get cacheFile(): string {
    return path.join(this.deps.cacheDir, 'registry-cache.json');
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** The catalogue: cached when fresh, cached and refreshed in the background when stale, else fetched. */
  async load(): Promise<LoadedRegistry> {
    const url = this.deps.url();
    const cache = await this.readCache();
    const decision = cacheDecision(cache, url, this.now(), this.deps.ttlMs ?? REGISTRY_TTL_MS);
    if (cache && decision !== 'missing') {
      const cached = this.fromCache(cache);
      if (cached) {
        if (decision === 'stale') {
          void this.refresh().then((loaded) => {
            if (loaded.origin === 'network') this.deps.onBackgroundRefresh?.(loaded);
          });
        }
        return cached;
      }
    }
    return this.refresh();
  }

  /** Fetches now (one fetch at a time); the cache for this URL, else the snapshot, when that fails. */
  refresh(): Promise<LoadedRegistry> {
    this.refreshing ??= this.fetchOrFallBack().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async fetchOrFallBack(): Promise<LoadedRegistry> {
    const url = this.deps.url();
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
      const text = await response.text();
      const registry = parseRegistry(text);
      for (const problem of registry.problems) this.deps.log.warn(`ACP Registry: left out ${problem}`);
      const fetchedAt = this.now();
      await this.writeCache({ url, fetchedAt, text });
      this.deps.log.info(`ACP Registry: ${registry.agents.length} agents from ${url}`);
      return { registry, origin: 'network', url, date: new Date(fetchedAt) };
    } catch (error) {
      const reason = fetchFailure(error);
      const cache = await this.readCache();
      const cached = cache?.url === url ? this.fromCache(cache) : undefined;
      if (cached) {
        this.deps.log.warn(`ACP Registry: ${url} could not be fetched (${reason}); using the copy fetched ${cached.date.toISOString()}`);
        return { ...cached, offlineReason: reason };
      }
      this.deps.log.warn(`ACP Registry: ${url} could not be fetched (${reason}); using the snapshot shipped with the extension`);
      return { ...(await this.snapshot()), url, offlineReason: reason };
    }
  }

  /** The registry shipped in the VSIX, with the day it was assembled. */
  async snapshot(): Promise<LoadedRegistry> {
    const text = await fs.promises.readFile(this.deps.snapshotFile, 'utf8');
    const registry = parseRegistry(text);
    const meta = (JSON.parse(text) as { snapshot?: { date?: unknown } }).snapshot;
    const date = typeof meta?.date === 'string' ? new Date(meta.date) : new Date(0);
    return { registry, origin: 'snapshot', url: this.deps.url(), date };
  }

  private fromCache(cache: CacheFile): LoadedRegistry | undefined {
    try {
      return { registry: parseRegistry(cache.text), origin: 'cache', url: cache.url, date: new Date(cache.fetchedAt) };
    } catch (error) {
      this.deps.log.warn(`ACP Registry: ignoring the cached copy: ${errorMessage(error)}`);
      return undefined;
    }
  }

  private async readCache(): Promise<CacheFile | undefined> {
    try {
      const parsed = JSON.parse(await fs.promises.readFile(this.cacheFile, 'utf8')) as Partial<CacheFile>;
      if (typeof parsed.url === 'string' && typeof parsed.fetchedAt === 'number' && typeof parsed.text === 'string') {
        return { url: parsed.url, fetchedAt: parsed.fetchedAt, text: parsed.text };
      }
    } catch {
      // No cache yet, or an unreadable one: fetch.
    }
    return undefined;
  }

  private async writeCache(cache: CacheFile): Promise<void> {
    try {
      await fs.promises.mkdir(this.deps.cacheDir, { recursive: true });
      // Write then rename: a crash mid-write never leaves a half cache behind.
      const temp = `${this.cacheFile}.${process.pid}.tmp`;
      await fs.promises.writeFile(temp, JSON.stringify(cache));
      await fs.promises.rename(temp, this.cacheFile);
    } catch (error) {
      this.deps.log.warn(`ACP Registry: could not cache the registry: ${errorMessage(error)}`);
    }
  }
}

/** `fetch failed` hides the cause (ECONNREFUSED, ENOTFOUND, timeout); name it. */
function fetchFailure(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${FETCH_TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (cause && typeof cause.code === 'string') return `${errorMessage(error)}: ${cause.code}`;
  return errorMessage(error);
}
