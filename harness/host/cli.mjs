// @ts-check
// Command-line parsing shared by the launchers (run-offline, run-electron, test/ui/run.mjs) and
// scripts/start.mjs: flags from node:util's parseArgs, `--help` printing the comment block at the
// top of the calling file, a bad flag exiting 2 with that help.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/**
 * @template {Record<string, {type: 'string' | 'boolean', short?: string}>} T
 * @param {string} fileUrl  the caller's import.meta.url (its header comment is the help)
 * @param {T} options
 * @param {string} tag  prefix of error lines, e.g. "[host]"
 * @param {(flags: Record<string, unknown>) => void} [validate]  throws on a bad value
 * @returns {{ [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string }}
 */
export function parseCli(fileUrl, options, tag, validate) {
  const help = helpOf(fileUrl);
  /** @type {Record<string, unknown>} */
  let flags = {};
  try {
    ({ values: flags } = parseArgs({ options: { ...options, help: { type: 'boolean', short: 'h' } } }));
    validate?.(flags);
  } catch (e) {
    console.error(`${tag} ${e instanceof Error ? e.message : String(e)}\n\n${help}`);
    process.exit(2);
  }
  if (flags.help) {
    console.log(help);
    process.exit(0);
  }
  return /** @type {{ [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : string }} */ (flags);
}

/** The comment block at the top of a file (after the shebang), without the comment markers. */
function helpOf(fileUrl) {
  const lines = readFileSync(new URL(fileUrl), 'utf8').split('\n');
  const start = lines[0].startsWith('#!') ? 1 : 0;
  const block = [];
  for (const line of lines.slice(start)) {
    if (line.startsWith('// @ts-check')) continue;
    if (!line.startsWith('//')) break;
    block.push(line.replace(/^\/\/ ?/, ''));
  }
  return block.join('\n');
}
