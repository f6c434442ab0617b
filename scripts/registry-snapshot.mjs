// Assembles resources/registry-snapshot.json (the catalogue shipped in the VSIX, used offline)
// from a checkout of https://github.com/agentclientprotocol/registry: the facts of each
// `<id>/agent.json`, as the registry's own build does (icons become CDN URLs; entries under
// `_`-prefixed folders are not published).
//   git clone --depth 1 https://github.com/agentclientprotocol/registry /tmp/registry
//   node scripts/registry-snapshot.mjs /tmp/registry [COMMIT] [YYYY-MM-DD]
// The snapshot is dated by the checkout's last commit (its data's age, which the offline UI shows
// and scripts/snapshot-age.mjs checks), not by the day this runs; COMMIT and DATE override that,
// and are needed for a folder that is not a git checkout.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, commitArg, dateArg] = process.argv.slice(2);
if (!dir) throw new Error('usage: node scripts/registry-snapshot.mjs REGISTRY_CHECKOUT [COMMIT] [DATE]');
const head = gitHead(dir);
const commit = commitArg ?? head?.commit;
const date = dateArg ?? head?.date;
if (commit === undefined || date === undefined) throw new Error(`${dir} is not a git checkout: give its COMMIT and DATE (YYYY-MM-DD)`);
if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`DATE must be YYYY-MM-DD, not ${date}`);

const CDN = 'https://cdn.agentclientprotocol.com/registry/v1/latest';
const agents = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_') && !d.name.startsWith('.') && existsSync(join(dir, d.name, 'agent.json')))
  .map((d) => {
    const agent = JSON.parse(readFileSync(join(dir, d.name, 'agent.json'), 'utf8'));
    if (existsSync(join(dir, d.name, 'icon.svg'))) agent.icon = `${CDN}/${agent.id}.svg`;
    else delete agent.icon;
    return agent;
  })
  .sort((a, b) => a.id.localeCompare(b.id));
const snapshot = {
  version: '1.0.0',
  snapshot: { date, source: `https://github.com/agentclientprotocol/registry/tree/${commit}` },
  agents,
};
writeFileSync(new URL('../resources/registry-snapshot.json', import.meta.url), JSON.stringify(snapshot) + '\n');
console.log(`${agents.length} agents, ${date}, ${commit}`);

/**
 * The checkout's last commit and its day (UTC), or undefined when `dir` is not a git checkout.
 * @param {string} dir
 * @returns {{ commit: string, date: string } | undefined}
 */
function gitHead(dir) {
  /** @param {string[]} args */
  const git = (...args) =>
    execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC' }, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    // A plain folder inside some other repository is no checkout of the registry.
    if (realpathSync(git('rev-parse', '--show-toplevel')) !== realpathSync(dir)) return undefined;
    const [commit, day] = git('log', '-1', '--format=%H %cd', '--date=format-local:%Y-%m-%d').split(' ');
    return commit && day ? { commit, date: day } : undefined;
  } catch {
    return undefined;
  }
}
