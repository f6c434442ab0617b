/**
 * Streamed text (issue 15, goals 1 and 2): agent_message_chunks through the extension into the
 * Chat view, visible and hidden, flat out and paced, and one 1 MB markdown answer, against tool
 * calls of the same message count in the same run (bench/client/textStreamBench.ts,
 * bench/host/textStream.ts). The chat webview's own main-thread blocks are printed by the UI test
 * (test/ui/chat.test.mjs, "streams 1 MB").
 *
 * Knobs (environment): ACP_BENCH_TEXT_MESSAGES (default 10000), ACP_BENCH_TEXT_PACE (2000 messages/s),
 * ACP_BENCH_TEXT_BYTES (1 MiB), ACP_BENCH_TEXT_REPS (2), ACP_BENCH_TEXT_ONLY (comma-separated parts of
 * scenario names: run only those; "|"-separated when it holds a "|"), ACP_BENCH_PROFILE=<dir> (a CPU profile and `.blocks.json` of the
 * extension host per run), ACP_BENCH_SKIP_HOST=1 (skip).
 */
import { textStreamBench } from './client/textStreamBench';
import { envNumber } from './support/knobs';

export default async function textBench(): Promise<void> {
  if (process.env.ACP_BENCH_SKIP_HOST === '1') return;
  await textStreamBench({
    messages: envNumber('ACP_BENCH_TEXT_MESSAGES', 10_000),
    pace: envNumber('ACP_BENCH_TEXT_PACE', 2000),
    bytes: envNumber('ACP_BENCH_TEXT_BYTES', 1024 * 1024),
    repetitions: envNumber('ACP_BENCH_TEXT_REPS', 2),
  });
}
