/**
 * The extension host's main thread in its event-loop blocks (5 ms ticks): in the longest block, its
 * own CPU time and its time waiting for a CPU (Linux schedstat: runnable, not run); and the most CPU
 * it spent in any one block. On a loaded 2-core machine a block's wall time is mostly other
 * processes' turns: its CPU is what the extension host itself did. Elsewhere (no /proc), the whole
 * process's CPU time and no wait. (bench/host/treeStorm.ts has its own copy of this probe.)
 */
import * as fs from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface MainThreadBlocks {
  /** The longest block's main-thread CPU time (ms). */
  readonly longestCpuMs: number;
  /** The longest block's time runnable but not run (ms). */
  readonly longestWaitMs: number;
  /** The most main-thread CPU time in any one block (ms). */
  readonly maxCpuMs: number;
}

export function mainThreadBlocks(): { stop(): MainThreadBlocks } {
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
    return [run / 1e6, wait / 1e6];
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
