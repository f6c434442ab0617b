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
 * written there as `<prefix>-<name>.cpuprofile`, with the event-loop blocks over 20 ms in
 * `<prefix>-<name>.blocks.json` (to find them in the profile). Without it, nothing.
 */
export async function profiler(prefix: string, name: string): Promise<{ stop(): Promise<void> }> {
  const dir = process.env.ACP_BENCH_PROFILE;
  if (!dir) return { stop: () => Promise.resolve() };
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  // The event-loop blocks over 20 ms, in the profile's clock (monotonic µs), for blockprof.py.
  const blocks: { startUs: number; endUs: number }[] = [];
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  let last = nowUs();
  const timer = setInterval(() => {
    const now = nowUs();
    if (now - last > 20_000) blocks.push({ startUs: last, endUs: now });
    last = now;
  }, 5);
  return {
    stop: async () => {
      clearInterval(timer);
      const { profile } = await session.post('Profiler.stop');
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${prefix}-${name.replace(/\W+/g, '-')}`);
      fs.writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
      fs.writeFileSync(`${file}.blocks.json`, JSON.stringify(blocks));
      session.disconnect();
    },
  };
}
