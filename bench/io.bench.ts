/**
 * Issue 15's I/O cases in the real VS Code extension host: 100 MB of terminal output (client and
 * display terminals) against a bare pipe, and a 10 MB file's diff opening against a plain read
 * (bench/client/ioFloodsBench.ts, bench/host/ioFloods.ts).
 *
 * Knobs (environment): ACP_BENCH_IO_MB (default 100), ACP_BENCH_IO_FILE_MB (10), ACP_BENCH_IO_REPS (2),
 * ACP_BENCH_IO_ONLY="pipe baseline,client terminal" runs only those scenarios, ACP_BENCH_SKIP_HOST=1 skips
 * it; ACP_BENCH_PROFILE=DIR writes CPU profiles of the host, ACP_BENCH_HEAP_SNAPSHOT=DIR heap snapshots after each run.
 */
import { ioFloodsBench } from './client/ioFloodsBench';
import { envNumber } from './support/knobs';

export default async function ioBench(): Promise<void> {
  if (process.env.ACP_BENCH_SKIP_HOST === '1') return;
  await ioFloodsBench({
    mb: envNumber('ACP_BENCH_IO_MB', 100),
    fileMb: envNumber('ACP_BENCH_IO_FILE_MB', 10),
    repetitions: envNumber('ACP_BENCH_IO_REPS', 2),
  });
}
