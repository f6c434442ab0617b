/**
 * `npm run bench`: runs every `bench/*.bench.ts` in turn. Each is a module whose default export
 * is an `async () => void` that measures and prints its own table. Figures are printed, never
 * asserted: they compare against baselines measured in the same run, on the same machine.
 */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

type Bench = () => Promise<void>;

async function main(): Promise<void> {
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.bench.ts')).sort();
  for (const file of files) {
    process.stdout.write(`\n== ${file} ==\n`);
    const loaded = (await import(path.join(__dirname, file))) as { default?: Bench | { default?: Bench } };
    // A CommonJS-compiled module may wrap its default export once more.
    const bench = typeof loaded.default === 'function' ? loaded.default : loaded.default?.default;
    if (bench === undefined) throw new Error(`${file} has no default export`);
    await bench();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
