/**
 * Small helpers the in-host benches (bench/host/*, run inside the VS Code extension host) share.
 */
import * as fs from 'node:fs';
import * as inspector from 'node:inspector/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** Sets a user (global) setting: `acpNative.trace` → section `acpNative`, key `trace`. */
export async function setSetting(key: string, value: unknown): Promise<void> {
  const [section, ...rest] = key.split('.');
  await vscode.workspace.getConfiguration(section).update(rest.join('.'), value, vscode.ConfigurationTarget.Global);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * With ACP_BENCH_PROFILE set to a folder: a CPU profile of the extension host around one run,
 * written there as `<prefix>-<name>.cpuprofile`. Without it, nothing.
 */
export async function profiler(prefix: string, name: string): Promise<{ stop(): Promise<void> }> {
  const dir = process.env.ACP_BENCH_PROFILE;
  if (!dir) return { stop: () => Promise.resolve() };
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    stop: async () => {
      const { profile } = await session.post('Profiler.stop');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, `${prefix}-${name.replace(/\W+/g, '-')}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}
