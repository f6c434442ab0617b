/**
 * Small helpers the in-host benches (bench/host/*, run inside the VS Code extension host) share;
 * what they share with the integration suites is in harness/inHost.
 */
import { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as inspector from 'node:inspector/promises';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { ChangedSettings, getApi, useTestAgent, type TestAgent } from '../../harness/inHost/extension';

/**
 * With ACP_BENCH_PROFILE set to a folder: a CPU profile of the extension host around one run,
 * written there as `<prefix>-<name>.cpuprofile`, with the event-loop blocks over 20 ms in
 * `<prefix>-<name>.blocks.json` (to find them in the profile). Without it, nothing. With
 * ACP_BENCH_HEAP_PROFILE=1 as well, a sampling heap profile of the same span, garbage included
 * (every sample, even of objects already collected: what a run allocates, not what it keeps), in
 * `<prefix>-<name>.heapprofile` (each sample carries its object's size: bench/support/heapprof.py reads it).
 */
export async function profiler(prefix: string, name: string): Promise<{ stop(): Promise<void> }> {
  const dir = process.env.ACP_BENCH_PROFILE;
  if (!dir) return { stop: () => Promise.resolve() };
  const session = new inspector.Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const heap = process.env.ACP_BENCH_HEAP_PROFILE === '1';
  if (heap) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 16 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  // The event-loop blocks over 20 ms (ACP_BENCH_BLOCK_MS to change it: the blocks a p99 is made
  // of are shorter), in the profile's clock (monotonic µs), for blockprof.py; with the host
  // process's CPU time meanwhile (all its threads), what it sent the window in that turn (bytes,
  // deflate writes) and, where Linux tells it, the main thread's own time on a CPU and waiting for
  // one (runqueue): a block of little main-thread CPU is a host the machine did not run, or asleep.
  const blockUs = (Number(process.env.ACP_BENCH_BLOCK_MS) || 20) * 1000;
  const blocks: {
    startUs: number;
    endUs: number;
    cpuMs: number;
    mainRunMs?: number;
    mainWaitMs?: number;
    sentBytes: number;
    sentWrites: number;
    /** The garbage collections that ended in the block: their kind (major, minor, …) and pause (ms). */
    gc: { kind: string; ms: number }[];
    /**
     * Processes the extension host started in the block (anyone's: VS Code's port finder runs a
     * shell), with the time `spawn` held the event loop (ms): libuv forks and waits for the exec.
     */
    spawns: { file: string; ms: number }[];
  }[] = [];
  let spawnsSince: { file: string; ms: number }[] = [];
  const spawns = watchSpawns((file, ms) => spawnsSince.push({ file, ms: Math.round(ms * 10) / 10 }));
  let gcSince: { kind: string; ms: number }[] = [];
  const gcKinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
  };
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      gcSince.push({ kind: (kind !== undefined && gcKinds[kind]) || String(kind), ms: Math.round(entry.duration * 10) / 10 });
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  let lastSched = mainThreadSchedule();
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  let last = nowUs();
  let lastCpu = process.cpuUsage();
  let lastSent = deflatedBytes();
  let lastWrites = deflateWrites();
  const timer = setInterval(() => {
    const now = nowUs();
    const cpu = process.cpuUsage(lastCpu);
    const sent = deflatedBytes();
    const writes = deflateWrites();
    const sched = mainThreadSchedule();
    if (now - last > blockUs) {
      const main = sched && lastSched ? { mainRunMs: (sched.runNs - lastSched.runNs) / 1e6, mainWaitMs: (sched.waitNs - lastSched.waitNs) / 1e6 } : {};
      blocks.push({ startUs: last, endUs: now, cpuMs: (cpu.user + cpu.system) / 1000, ...main, sentBytes: sent - lastSent, sentWrites: writes - lastWrites, gc: gcSince, spawns: spawnsSince });
    }
    gcSince = [];
    spawnsSince = [];
    lastSched = sched;
    last = now;
    lastCpu = process.cpuUsage();
    lastSent = sent;
    lastWrites = writes;
  }, 5);
  return {
    stop: async () => {
      clearInterval(timer);
      gcObserver.disconnect();
      spawns.stop();
      const { profile } = await session.post('Profiler.stop');
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${prefix}-${name.replace(/\W+/g, '-')}`);
      if (heap) {
        const { profile: heapProfile } = await session.post('HeapProfiler.stopSampling');
        fs.writeFileSync(`${file}.heapprofile`, JSON.stringify(heapProfile));
      }
      fs.writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
      fs.writeFileSync(`${file}.blocks.json`, JSON.stringify(blocks));
      session.disconnect();
    },
  };
}

/**
 * Activates the extension with a test agent of harness/agents (built next to the bench module, in
 * out/bench/agents/) as its default agent, stopped, and `settings` set; `stop()` stops the agent
 * and puts every setting back.
 */
export async function activateWithTestAgent(agent: TestAgent, settings: Readonly<Record<string, unknown>>): Promise<{ api: AcpNativeApi; stop(): Promise<void> }> {
  const api = await getApi();
  const changed = new ChangedSettings();
  await useTestAgent(api, agent, changed);
  await changed.setAll(settings);
  return {
    api,
    stop: async () => {
      await api.stopAgent();
      await changed.restore();
    },
  };
}

/**
 * The storm agent (harness/agents/stormAgent.ts), with diffs opened on click only: thousands of
 * edits must not open thousands of diff editors.
 */
export function activateWithStormAgent(): Promise<{ api: AcpNativeApi; stop(): Promise<void> }> {
  return activateWithTestAgent({ name: 'storm', file: 'stormAgent' }, { 'acpNative.diff.autoOpen': 'onClick' });
}

/**
 * Calls `seen` with each process the extension host starts meanwhile (anyone's: VS Code's own port
 * finder runs a shell every few seconds in a remote extension host) and how long its `spawn` held
 * the event loop (ms): libuv forks the whole host and waits until the child has exec'd, asleep when
 * the loaded machine does not run the child.
 */
export function watchSpawns(seen: (file: string, ms: number) => void): { stop(): void } {
  const proto = ChildProcess.prototype as unknown as { spawn(options: { file?: string }): unknown };
  const spawn = proto.spawn;
  proto.spawn = function (this: unknown, options: { file?: string }) {
    const start = performance.now();
    try {
      return spawn.call(this, options);
    } finally {
      seen(String(options?.file ?? '?'), performance.now() - start);
    }
  };
  return {
    stop: () => {
      proto.spawn = spawn;
    },
  };
}

/** The calling thread's time on a CPU and waiting in the runqueue (ns), from Linux's schedstat; undefined elsewhere. */
function mainThreadSchedule(): { runNs: number; waitNs: number } | undefined {
  try {
    const [run, wait] = fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { runNs: run, waitNs: wait };
  } catch {
    return undefined;
  }
}

let deflated: { bytes: number; writes: number } | undefined;

/**
 * Bytes the extension host has compressed so far (raw deflate, before compression): in code-server,
 * as in any remote or browser VS Code, every message the host sends the window goes through
 * permessage-deflate there, so this is what the extension made VS Code send, and compress, on its
 * behalf. Counted from the first call on (desktop VS Code sends over IPC uncompressed: always 0).
 */
export function deflatedBytes(): number {
  if (!deflated) {
    const counter = { bytes: 0, writes: 0 };
    deflated = counter;
    const proto = zlib.DeflateRaw.prototype as unknown as { _transform(chunk: Buffer, encoding: BufferEncoding, done: () => void): void };
    const transform = proto._transform;
    proto._transform = function (this: unknown, chunk, encoding, done) {
      counter.bytes += chunk.length;
      counter.writes++;
      transform.call(this, chunk, encoding, done);
    };
  }
  return deflated.bytes;
}

/** Writes into the host's deflate streams so far (each a message, or part of one, the host sent the window). */
export function deflateWrites(): number {
  deflatedBytes();
  return deflated?.writes ?? 0;
}
