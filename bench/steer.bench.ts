/**
 * A steer's round trip in the real VS Code host (bench/host/steer.ts): the extension host's longest
 * event-loop block while a steer goes to the agent, is answered `injected`, is recorded as the
 * user's message and its answer arrives, against a plain prompt's round trip to the same agent in
 * the same run (alternated). Goal (issue 24): the steer adds no host block of ours over 10 ms.
 * Knob: ACP_BENCH_STEER_REPS (20). Wrap in the host lock: only one VS Code host may run at a time.
 */
import * as os from 'node:os';
import { median, num, ratio, table } from './client/stats';
import type { SteerRecord } from './host/steer';
import { buildHostBench, runHostBench, type HostBench } from './support/hostBench';
import { envNumber } from './support/knobs';

const BENCH: HostBench = { host: 'steer', agents: ['steeringAgent'] };

export default async function steerBench(): Promise<void> {
  const reps = envNumber('ACP_BENCH_STEER_REPS', 20);
  await buildHostBench(BENCH);
  const records = await runHostBench<SteerRecord>(BENCH, { timeout: '10m', env: { ACP_BENCH_STEER_REPS: String(reps) } });
  const of = (kind: SteerRecord['kind']) => records.filter((r) => r.kind === kind);
  const base = of('baseline');
  const steer = of('steer');
  const row = (name: string, rs: readonly SteerRecord[]) => [
    name,
    num(median(rs.map((r) => r.ms)), 1),
    num(median(rs.map((r) => r.maxBlockMs)), 1),
    num(Math.max(...rs.map((r) => r.maxBlockMs)), 1),
  ];
  console.log(`\n## A steer's round trip in VS Code (${reps} alternated reps, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')})`);
  console.log(table([['', 'round trip ms (median)', 'longest host block ms (median)', 'longest host block ms (max)'], row('baseline: a plain prompt', base), row('steer', steer)]));
  const blockRatio = median(steer.map((r) => r.maxBlockMs)) / Math.max(0.001, median(base.map((r) => r.maxBlockMs)));
  console.log(`steer / baseline, longest host block (medians): ${ratio(blockRatio)}`);
}
