// Plans, compaction, notices and usage with Claude's real ACP adapter and a real model, opt-in:
// it runs only when ACP_REAL_CLAUDE points at the adapter installed OUTSIDE the repo and
// ANTHROPIC_API_KEY holds a key (never logged: it goes to the agent's environment only), e.g.
//   mkdir /tmp/real-agents && cd /tmp/real-agents && npm i @agentclientprotocol/claude-agent-acp
//   ACP_REAL_CLAUDE=/tmp/real-agents/node_modules/.bin/claude-agent-acp ANTHROPIC_API_KEY=… \
//     node harness/host/run-offline.mjs --grep "real Claude"
// The model decides what it does, so each step waits generously and checks only what the
// adapter's wire shapes promise.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { waitFor, within } from './support/helpers';
import { realClaudeSuite } from './support/realClaude';

describe('plans, compaction and notices with real Claude (opt-in)', function () {
  this.timeout(600_000);
  const claude = realClaudeSuite(async (changed, home) => {
    // An MCP server that cannot start: Claude reports it as a notice during the first prompt.
    await changed.set('acpNative.mcpServers', [{ name: 'broken', command: path.join(home, 'no-such-server'), args: [] }]);
    await changed.set('acpNative.permissions.autoApprove', 'never');
  });

  it('reports the broken MCP server as a notice and the context window as usage', async () => {
    const api = claude();
    await within('a first prompt', api.prompt('Reply with the single word: ready'), 300_000);
    await waitFor('the notice', () => api.notices().find((n) => n.title.includes('broken')), 60_000);
    const usage = api.contextUsage();
    assert.ok(usage && usage.size > 0 && usage.used > 0, JSON.stringify(usage));
  });

  it('compacts on /compact: one compaction, completed, with its summary', async () => {
    const api = claude();
    await within('/compact', api.prompt('/compact'), 300_000);
    const compactions = api.compactions();
    assert.equal(compactions.length, 1, JSON.stringify(compactions));
    assert.equal(compactions[0]?.status, 'completed');
    assert.ok(compactions[0]?.summary, 'the summary came');
  });

  it('ends plan mode with a markdown plan once the plan is approved', async () => {
    const api = claude();
    const turn = api.prompt(
      'Use plan mode: enter plan mode, write a three-step plan to add a line "planned" to a file notes.txt in this folder, then ask me to approve it with ExitPlanMode. Do not edit anything.',
    );
    const question = await waitFor('the plan approval', () => api.pendingPermissions().find((q) => q.kind === 'switch_mode'), 300_000);
    const allow = question.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow, JSON.stringify(question.options));
    api.answerPermission(question.id, 'allow_once');
    // Approved, Claude may go on to edit: refuse whatever it asks next, the plan is what is checked.
    const refuse = setInterval(() => {
      for (const q of api.pendingPermissions()) api.answerPermission(q.id, 'reject_once');
    }, 500);
    try {
      await within('the plan turn', turn, 300_000);
    } finally {
      clearInterval(refuse);
    }
    const plan = api.plans().find((p) => p.planId === 'plan-mode');
    assert.equal(plan?.type, 'markdown');
    assert.ok(plan.content && plan.content.length > 10);
  });
});
