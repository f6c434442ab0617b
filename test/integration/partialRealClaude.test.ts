// Partial approval with Claude's real ACP adapter and a real model, opt-in: it runs only when
// ACP_REAL_CLAUDE points at the adapter installed OUTSIDE the repo and ANTHROPIC_API_KEY holds a
// key (see support/realClaude.ts for the setup), e.g.
//   ACP_REAL_CLAUDE=/tmp/real-agents/node_modules/.bin/claude-agent-acp ANTHROPIC_API_KEY=… \
//     node harness/host/run-offline.mjs --grep "partial approval with real Claude"
// The model chooses Write or Edit, so the check is what a user sees: the first hunk is in the file,
// the last is not, and the adapter was steered (or told at the next prompt) about it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { inWorkspace, waitFor, within } from './support/helpers';
import { realClaudeSuite } from './support/realClaude';

describe('partial approval with real Claude (opt-in)', function () {
  this.timeout(600_000);
  const claude = realClaudeSuite();

  it('keeps the first hunk of an overwrite and reverts the last', async () => {
    const api = claude();
    const file = inWorkspace('partial/claude.txt');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n');
    const turn = api.prompt(`Overwrite ${file} with the Write tool so that its first line is ALPHA and its last line is THETA (everything else unchanged). Then stop.`);
    const q = await waitFor('the question', () => api.pendingPermissions().find((p) => (p.hunks ?? 0) >= 2), 300_000);
    const last = (q.hunks ?? 0) - 1;
    assert.equal(api.answerPermission(q.id, 'allow_once', { keepHunks: Array.from({ length: last }, (_, i) => i) }), true);
    const outcome = await waitFor('the outcome', () => api.partialApprovals().find((p) => p.path === file && p.status !== 'waiting' && p.told), 120_000);
    await within('the turn', turn, 300_000);
    assert.equal(outcome.status, 'applied', outcome.note);
    const text = fs.readFileSync(file, 'utf8');
    assert.match(text, /^ALPHA\n/);
    assert.match(text, /\ntheta\n$/);
  });
});
