/**
 * Makes a registry agent runnable: checks that `npx`/`uvx` exist, or downloads a `binary` for this
 * platform and extracts it under `<root>/<id>/<version>/` (a staging folder first, renamed into
 * place only when every entry was safe), then removes that agent's older versions. No `vscode`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { registryPlatform, usableDistributions, type DistributionKind, type RegistryAgent } from './model/registry';
import {
  archiveKind,
  binaryProgram,
  installFolderName,
  packageCommandLine,
  rawProgramName,
  RUNNER_HINTS,
  runnerFileNames,
  type CommandLine,
  type PackageRunner,
} from './model/registryInstall';
import { errorMessage, type Logger } from '../../base/log';

/** An agent added from the registry: what Choose Agent lists and `resolveLaunch` starts. */
export interface AddedAgent extends CommandLine {
  id: string;
  /** The name shown in Choose Agent and used as `acpNative.defaultAgent`. */
  name: string;
  version: string;
  distribution: DistributionKind;
  description: string;
}

export interface InstallProgress {
  message?: string;
  /** 0..1 of the download, when its size is known. */
  fraction?: number;
}

export class RunnerMissingError extends Error {
  override readonly name = 'RunnerMissingError';
}

export class RegistryInstaller {
  /** One install per agent at a time (a second click waits for the first). */
  private readonly running = new Map<string, Promise<AddedAgent>>();

  constructor(
    private readonly deps: {
      /** `<global storage>/agents`. */
      root: string;
      log: Pick<Logger, 'info' | 'warn'>;
      platform?: NodeJS.Platform;
      arch?: string;
      env?: NodeJS.ProcessEnv;
    },
  ) {}

  private get platform(): NodeJS.Platform {
    return this.deps.platform ?? process.platform;
  }

  async install(agent: RegistryAgent, report: (p: InstallProgress) => void = () => undefined, signal?: AbortSignal): Promise<AddedAgent> {
    const previous = this.running.get(agent.id) ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(() => this.installNow(agent, report, signal));
    this.running.set(agent.id, next);
    try {
      return await next;
    } finally {
      if (this.running.get(agent.id) === next) this.running.delete(agent.id);
    }
  }

  private async installNow(agent: RegistryAgent, report: (p: InstallProgress) => void, signal: AbortSignal | undefined): Promise<AddedAgent> {
    const platform = registryPlatform(this.platform, this.deps.arch ?? process.arch);
    const kinds = usableDistributions(agent, platform);
    const kind = kinds[0];
    if (!kind) {
      throw new Error(`${agent.name} has no distribution for this computer (${platform ?? `${this.platform}-${this.deps.arch ?? process.arch}`}).`);
    }
    const base = { id: agent.id, name: agent.name, version: agent.version, description: agent.description };
    if (kind === 'npx' || kind === 'uvx') {
      // Prefer a runner that is present over reporting the first one missing.
      const runnable = kinds.filter((k): k is PackageRunner => k === 'npx' || k === 'uvx').find((k) => this.findOnPath(k));
      if (!runnable) {
        const runner = kind;
        throw new RunnerMissingError(`${agent.name} runs with ${runner}, which was not found on PATH. ${RUNNER_HINTS[runner]}, then try again.`);
      }
      const dist = agent.distribution[runnable];
      if (!dist) throw new Error(`${agent.name} lists no ${runnable} package.`);
      await this.removeVersionsExcept(agent.id, undefined);
      return { ...base, distribution: runnable, ...packageCommandLine(runnable, dist, this.platform) };
    }
    const target = platform ? agent.distribution.binary?.[platform] : undefined;
    if (!target) throw new Error(`${agent.name} has no binary for ${platform}.`);
    const agentDir = path.join(this.deps.root, installFolderName(agent.id));
    const versionDir = path.join(agentDir, installFolderName(agent.version));
    const program = binaryProgram(versionDir, target);
    if (!(await isFile(program))) {
      await this.downloadAndExtract(agent, target.archive, rawProgramName(target), agentDir, versionDir, report, signal);
      if (!(await isFile(program))) {
        await fs.promises.rm(versionDir, { recursive: true, force: true });
        throw new Error(`The archive of ${agent.name} ${agent.version} has no ${target.cmd}.`);
      }
    }
    if (this.platform !== 'win32') await fs.promises.chmod(program, 0o755);
    await this.removeVersionsExcept(agent.id, agent.version);
    return { ...base, distribution: 'binary', command: program, args: [...target.args], env: { ...target.env } };
  }

  private async downloadAndExtract(
    agent: RegistryAgent,
    url: string,
    rawName: string,
    agentDir: string,
    versionDir: string,
    report: (p: InstallProgress) => void,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    await fs.promises.mkdir(agentDir, { recursive: true });
    const unique = `${process.pid}-${Date.now().toString(36)}`;
    const download = path.join(agentDir, `.download-${unique}`);
    const staging = path.join(agentDir, `.staging-${unique}`);
    try {
      report({ message: `Downloading ${agent.name} ${agent.version}…` });
      await downloadTo(url, download, report, signal);
      report({ message: `Unpacking ${agent.name} ${agent.version}…` });
      // The archive readers (yauzl, tar-stream, seek-bzip) load on the first install, not at activation.
      const { extractArchive } = await import('./archives');
      await extractArchive(download, archiveKind(url), staging, rawName);
      await fs.promises.rm(versionDir, { recursive: true, force: true });
      await fs.promises.rename(staging, versionDir);
      this.deps.log.info(`ACP Registry: installed ${agent.id} ${agent.version} from ${url} into ${versionDir}`);
    } catch (error) {
      throw new Error(`Could not install ${agent.name} ${agent.version} from ${url}: ${errorMessage(error)}`, { cause: error });
    } finally {
      await fs.promises.rm(download, { force: true });
      await fs.promises.rm(staging, { recursive: true, force: true });
    }
  }

  /** Deletes everything installed for the agent, after any install of it under way. */
  async uninstall(id: string): Promise<void> {
    const previous = this.running.get(id) ?? Promise.resolve(undefined);
    await previous.catch(() => undefined);
    await this.removeVersionsExcept(id, undefined);
  }

  /**
   * Removes the agent's other versions (and leftovers of interrupted installs); `undefined` keeps
   * none. Called inside the agent's serialized install, so no install of it is under way.
   */
  async removeVersionsExcept(id: string, keep: string | undefined): Promise<void> {
    const agentDir = path.join(this.deps.root, installFolderName(id));
    let names: string[];
    try {
      names = await fs.promises.readdir(agentDir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name === keep) continue;
      try {
        await fs.promises.rm(path.join(agentDir, name), { recursive: true, force: true });
      } catch (error) {
        // Windows keeps a running program's files locked: the next install tries again.
        this.deps.log.warn(`ACP Registry: could not remove ${path.join(agentDir, name)}: ${errorMessage(error)}`);
      }
    }
    if (keep === undefined) await fs.promises.rm(agentDir, { recursive: true, force: true }).catch(() => undefined);
  }

  /** The runner's full path on PATH, if it is there. */
  findOnPath(runner: PackageRunner): string | undefined {
    const env = this.deps.env ?? process.env;
    const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
    for (const dir of dirs) {
      for (const name of runnerFileNames(runner, this.platform)) {
        const candidate = path.join(dir, name);
        try {
          const stat = fs.statSync(candidate);
          if (stat.isFile() && (this.platform === 'win32' || (stat.mode & 0o111) !== 0)) return candidate;
        } catch {
          // Not in this folder.
        }
      }
    }
    return undefined;
  }
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(file)).isFile();
  } catch {
    return false;
  }
}

async function downloadTo(url: string, file: string, report: (p: InstallProgress) => void, signal: AbortSignal | undefined): Promise<void> {
  const response = await fetch(url, signal ? { signal } : {});
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  const total = Number(response.headers.get('content-length')) || 0;
  let received = 0;
  let lastReported = 0;
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  body.on('data', (chunk: Buffer) => {
    received += chunk.length;
    // A notification per percent at most.
    if (total && received / total - lastReported >= 0.01) {
      lastReported = received / total;
      report({ fraction: lastReported, message: `${(received / 1024 ** 2).toFixed(1)} of ${(total / 1024 ** 2).toFixed(1)} MB` });
    }
  });
  await pipeline(body, fs.createWriteStream(file));
}
