/**
 * Client-side figures, each as a ratio to a baseline measured in the same run:
 * 1. update ingestion of the session core (KeyedSerialQueue → SessionState.apply) against the
 *    SDK's raw dispatch of the same ndjson stream to a no-op handler (bench/client/ingestionBench.ts);
 * 2. 10,000 tool calls from a real agent through the extension into the Tool Calls tree, in the
 *    real VS Code extension host, against the same number of plain message chunks, with the
 *    count of tree refreshes, the extension host's longest event-loop block and p99, its GC
 *    pauses and memory growth; and a 10,000-update `session/load` against reading and parsing
 *    the same updates from a file (bench/client/treeStormBench.ts, bench/host/treeStorm.ts).
 *
 * Knobs (environment): ACP_BENCH_UPDATES (default 10000), ACP_BENCH_STORM_CALLS (10000),
 * ACP_BENCH_STORM_REPS (2), ACP_BENCH_STORM_PACE (2000 calls/s), ACP_BENCH_REPLAY_EVENTS (10000),
 * ACP_BENCH_SKIP_HOST=1 (part 1 only).
 */
import { ingestionBench } from './client/ingestionBench';
import { treeStormBench } from './client/treeStormBench';
import { envNumber } from './support/knobs';

export default async function clientBench(): Promise<void> {
  await ingestionBench({ updates: envNumber('ACP_BENCH_UPDATES', 10_000), repetitions: 7 });
  if (process.env.ACP_BENCH_SKIP_HOST === '1') return;
  await treeStormBench({
    calls: envNumber('ACP_BENCH_STORM_CALLS', 10_000),
    repetitions: envNumber('ACP_BENCH_STORM_REPS', 2),
    pace: envNumber('ACP_BENCH_STORM_PACE', 2000),
    replayEvents: envNumber('ACP_BENCH_REPLAY_EVENTS', 10_000),
  });
}
