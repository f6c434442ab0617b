// Assembles resources/registry-snapshot.json (the catalogue shipped in the VSIX, used offline)
// from a checkout of https://github.com/agentclientprotocol/registry: the facts of each
// `<id>/agent.json`, as the registry's own build does (icons become CDN URLs; entries under
// `_`-prefixed folders are not published).
//   node scripts/registry-snapshot.mjs /path/to/registry-checkout [commit] [YYYY-MM-DD]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, commit = 'unknown', date = new Date().toISOString().slice(0, 10)] = process.argv.slice(2);
if (!dir) throw new Error('usage: node scripts/registry-snapshot.mjs REGISTRY_CHECKOUT [COMMIT] [DATE]');
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
