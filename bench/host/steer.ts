// Runs INSIDE the VS Code extension host (built and launched by bench/steer.bench.ts): a steer's
// round trip through the extension, with the steering test agent (harness/agents/steeringAgent.ts),
// against a baseline measured in the same run: a plain prompt's round trip to the same agent.
// Each sample measures the extension host's longest event-loop block while it runs:
//   baseline  api.prompt('hello') → end_turn (the answer in the conversation)
//   steer     during a streaming turn, api.steer(text) → `injected`, and its answer in the
//             conversation (the user message recorded, the chat patched)
// Prints one `BENCH {json}` line per sample and `BENCH-DONE`. ACP_BENCH_STEER_REPS (default 20).
import { performance } from 'node:perf_hooks';
import { waitFor } from '../../harness/inHost/wait';
import { activateWithTestAgent } from '../support/inHost';
import { startLoopBlocks } from '../support/loopBlocks';

export interface SteerRecord {
  readonly kind: 'baseline' | 'steer';
  readonly rep: number;
  /** The round trip (ms). */
  readonly ms: number;
  /** The extension host's longest event-loop block meanwhile (ms). */
  readonly maxBlockMs: number;
  readonly p99Ms: number;
}

export async function run(): Promise<void> {
  const reps = Number(process.env.ACP_BENCH_STEER_REPS ?? 20);
  const { api, stop } = await activateWithTestAgent({ name: 'steering-bench', file: 'steeringAgent' }, {});
  try {
    await api.newSession();
    await api.prompt('warm up');
    for (let rep = 0; rep < reps; rep++) {
      // Baseline: a plain prompt's round trip.
      let probe = startLoopBlocks();
      let started = performance.now();
      await api.prompt(`hello ${rep}`);
      let blocks = probe.stop();
      console.log(`BENCH ${JSON.stringify({ kind: 'baseline', rep, ms: performance.now() - started, maxBlockMs: blocks.maxMs, p99Ms: blocks.p99Ms } satisfies SteerRecord)}`);
      // A steer into a streaming turn.
      const turn = api.prompt('work 20000');
      await waitFor('the turn to stream', () => api.conversation().at(-1)?.text.startsWith('Working on it'), { intervalMs: 5 });
      const text = `steer ${rep}`;
      probe = startLoopBlocks();
      started = performance.now();
      const outcome = await api.steer(text);
      if (outcome !== 'injected') throw new Error(`steer ${rep}: ${outcome}`);
      await waitFor('the steered answer', () => api.conversation().at(-1)?.text === `Steered: ${text}`, { intervalMs: 1 });
      blocks = probe.stop();
      console.log(`BENCH ${JSON.stringify({ kind: 'steer', rep, ms: performance.now() - started, maxBlockMs: blocks.maxMs, p99Ms: blocks.p99Ms } satisfies SteerRecord)}`);
      await turn;
    }
  } finally {
    await stop();
    console.log('BENCH-DONE');
  }
}
