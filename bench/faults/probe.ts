/**
 * What a fault costs the process that suffers it: CPU time, memory growth (peak RSS and heap over
 * the start) and the longest event-loop block, measured from inside that process.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface Cost {
  wallMs: number;
  cpuMs: number;
  /** Peak over the start, sampled every 5 ms. */
  rssGrowthMB: number;
  heapGrowthMB: number;
  /** Longest event-loop block: the most a 5 ms interval fired late, and the histogram's max. */
  maxBlockMs: number;
}

export async function measure(run: () => Promise<void>): Promise<Cost> {
  global.gc?.();
  const rss0 = process.memoryUsage.rss();
  const heap0 = process.memoryUsage().heapUsed;
  let rssPeak = rss0;
  let heapPeak = heap0;
  let maxLate = 0;
  let last = performance.now();
  const sampler = setInterval(() => {
    const now = performance.now();
    maxLate = Math.max(maxLate, now - last - 5);
    last = now;
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 5);
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    await run();
  } finally {
    histogram.disable();
    clearInterval(sampler);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  return {
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    rssGrowthMB: (rssPeak - rss0) / 2 ** 20,
    heapGrowthMB: (heapPeak - heap0) / 2 ** 20,
    maxBlockMs: Math.max(maxLate, histogram.max / 1e6),
  };
}
