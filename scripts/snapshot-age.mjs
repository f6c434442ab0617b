// Warns on stderr when the registry snapshot shipped in the VSIX (the catalogue offline users see)
// is older than MAX_AGE_DAYS. Part of `npm run package`; it never fails the build: a stale
// catalogue is worth a word, not a blocked release.
//   node scripts/snapshot-age.mjs [--snapshot FILE] [--today YYYY-MM-DD]
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Registry agents release every week or two and entries come and go month by month; two months
// is as old as an offline list can get before many of its versions and ids are gone.
const MAX_AGE_DAYS = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const REGENERATE = 'node scripts/registry-snapshot.mjs /path/to/registry-checkout';

try {
  const args = process.argv.slice(2);
  /** @param {string} name */
  const option = (name) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const file = option('--snapshot') ?? fileURLToPath(new URL('../resources/registry-snapshot.json', import.meta.url));
  const today = option('--today') ?? new Date().toISOString().slice(0, 10);
  const warning = ageWarning(relative(process.cwd(), file), readDate(file), today);
  if (warning !== undefined) process.stderr.write(`warning: ${warning}\n`);
} catch (error) {
  process.stderr.write(`warning: the registry snapshot's age could not be checked: ${error instanceof Error ? error.message : String(error)}\n`);
}

/**
 * The snapshot's date (`snapshot.date`), or undefined when it has none.
 * @param {string} file
 * @returns {string | undefined}
 */
function readDate(file) {
  const date = JSON.parse(readFileSync(file, 'utf8'))?.snapshot?.date;
  return typeof date === 'string' ? date : undefined;
}

/**
 * The warning for the snapshot `name` of `date` on `today` (both YYYY-MM-DD), or undefined when
 * it is recent enough.
 * @param {string} name
 * @param {string | undefined} date
 * @param {string} today
 * @returns {string | undefined}
 */
function ageWarning(name, date, today) {
  const days = date === undefined ? NaN : (Date.parse(today) - Date.parse(date)) / DAY_MS;
  if (Number.isNaN(days)) {
    return `${name} has no readable date (${String(date)}); regenerate it with ${REGENERATE}`;
  }
  if (days <= MAX_AGE_DAYS) return undefined;
  return (
    `${name}, the ACP Registry catalogue shown offline, is of ${date}, ${days} days ago ` +
    `(more than ${MAX_AGE_DAYS}): offline users may see agents and versions the registry no longer has. ` +
    `Regenerate it from a current checkout of the registry: ${REGENERATE}`
  );
}
