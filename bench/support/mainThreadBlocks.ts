/**
 * How the extension host's main thread lived its event-loop blocks (5 ms ticks), for the in-host
 * benches: in the longest block, its own CPU time and its time waiting for a CPU (Linux schedstat:
 * runnable, not run); and the most CPU it spent in any one block. On a loaded 2-core machine a
 * block's wall time is mostly other processes' turns: its CPU is what the extension host itself did.
 * Elsewhere (no /proc), the whole process's CPU time and no wait.
 */
import * as fs from 'node:fs';
import { performance, PerformanceObserver } from 'node:perf_hooks';

export interface MainThreadBlocks {
  /** The longest block's main-thread CPU time and runqueue wait (ms). */
  readonly longestCpuMs: number;
  readonly longestWaitMs: number;
  /** The most main-thread CPU time of any one block (ms). */
  readonly maxCpuMs: number;
}

export function startMainThreadBlocks(): { stop(): MainThreadBlocks } {
  let schedFd: number | undefined;
  try {
    schedFd = fs.openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    schedFd = undefined;
  }
  const buffer = Buffer.alloc(128);
  // [on a CPU, waiting for one] in ms since some start.
  const read = (): [number, number] => {
    if (schedFd === undefined) {
      const cpu = process.cpuUsage();
      return [(cpu.user + cpu.system) / 1000, 0];
    }
    const length = fs.readSync(schedFd, buffer, 0, buffer.length, 0);
    const [run, wait] = buffer.toString('latin1', 0, length).split(' ').map(Number);
    return [(run ?? 0) / 1e6, (wait ?? 0) / 1e6];
  };
  let last = performance.now();
  let [lastRun, lastWait] = read();
  let longest = 0;
  const result = { longestCpuMs: 0, longestWaitMs: 0, maxCpuMs: 0 };
  const tick = () => {
    const now = performance.now();
    const [run, wait] = read();
    if (now - last > longest) {
      longest = now - last;
      result.longestCpuMs = run - lastRun;
      result.longestWaitMs = wait - lastWait;
    }
    result.maxCpuMs = Math.max(result.maxCpuMs, run - lastRun);
    last = now;
    lastRun = run;
    lastWait = wait;
  };
  const timer = setInterval(tick, 5);
  return {
    stop: () => {
      tick();
      clearInterval(timer);
      if (schedFd !== undefined) fs.closeSync(schedFd);
      return result;
    },
  };
}

/** Garbage-collection pauses of the process while it runs: the longest and the total (ms). */
export function startGcPauses(): { stop(): { maxMs: number; totalMs: number } } {
  let maxMs = 0;
  let totalMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      maxMs = Math.max(maxMs, entry.duration);
      totalMs += entry.duration;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      observer.disconnect();
      return { maxMs, totalMs };
    },
  };
}
