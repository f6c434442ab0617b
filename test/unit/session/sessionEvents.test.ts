import * as assert from 'node:assert/strict';
import { SessionState, type SessionChanges } from '../../../src/extension/session/model/sessionState';
import { MAX_PLANS } from '../../../src/extension/session/model/plans';
import { MAX_NOTICE_ENTRIES } from '../../../src/extension/session/model/notices';
import { MAX_SUMMARY_CHARS } from '../../../src/extension/session/model/compactions';

function session() {
  const flushes: (() => void)[] = [];
  const changes: SessionChanges[] = [];
  const state = new SessionState({ sessionId: 's1', cwd: '/p', schedule: (flush) => flushes.push(flush) });
  state.onDidChange((c) => changes.push(c));
  /** Delivers what is pending: the change event it gave, if any. */
  const flush = () => {
    const before = changes.length;
    for (const f of flushes.splice(0)) f();
    return changes.length > before ? changes.at(-1) : undefined;
  };
  return { state, flush };
}

const text = (t: string) => ({ type: 'text' as const, text: t });
/** The conversation's entries by kind, with what a reader would notice of each. */
const shape = (state: SessionState) =>
  state.transcript.map((e) => {
    switch (e.type) {
      case 'message':
        return `${e.role}: ${e.text}`;
      case 'toolCall':
        return `[${e.id}]`;
      case 'plan':
        return `plan ${e.plan.planId}${e.plan.removed ? ' (removed)' : ''}`;
      case 'compaction':
        return `compaction ${e.compaction.id} ${e.compaction.status}`;
      case 'notice':
        return `notice ${e.notice.severity} ${e.notice.title}${e.notice.count > 1 ? ` ×${e.notice.count}` : ''}`;
      case 'subagent':
        return `subagent ${e.subagent.childId}`;
    }
  });

describe('plans, compactions and notices of a session', () => {
  describe('plans (plan_update, plan_removed)', () => {
    it('places a plan where it first came and replaces it in place; removal takes its card away', () => {
      const { state, flush } = session();
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Here is my plan.') });
      state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'plan-mode', content: '# Plan\n\n1. Read' } });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Going on.') });
      assert.equal(flush()?.plans, true);
      state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'plan-mode', content: '# Plan\n\n1. Read\n2. Edit' } });
      assert.deepEqual(shape(state), ['agent: Here is my plan.', 'plan plan-mode', 'agent: Going on.'], 'replaced in place, no second card');
      assert.equal(state.sessionEvents.plans[0]?.content, '# Plan\n\n1. Read\n2. Edit');
      assert.equal(state.sessionEvents.plans[0]?.revision, 1);
      const revision = state.sessionEvents.plans[0]?.revision;
      state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'plan-mode', content: '# Plan\n\n1. Read\n2. Edit' } });
      assert.equal(state.sessionEvents.plans[0]?.revision, revision, 'the same plan again changes nothing');
      flush();
      state.apply({ sessionUpdate: 'plan_removed', planId: 'plan-mode' });
      assert.equal(flush()?.plans, true);
      assert.deepEqual(state.sessionEvents.plans, []);
      assert.deepEqual(shape(state), ['agent: Here is my plan.', 'plan plan-mode (removed)', 'agent: Going on.']);
      state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'plan-mode', content: 'again' } });
      assert.equal(shape(state).at(-1), 'plan plan-mode', 'after removal the id starts a new card');
    });

    it('keeps file and items plans, a file plan with its path, a markdown plan whole however long', () => {
      const { state } = session();
      state.apply({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'f', uri: 'file:///home/u/.claude/plans/fix%20it.md' } });
      state.apply({ sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'web', uri: 'https://example.com/plan.md' } });
      state.apply({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'i', entries: [{ content: 'Step', status: 'pending', priority: 'high' }] } });
      const huge = '# Huge\n' + 'line of the plan\n'.repeat(400_000);
      state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'm', content: huge } });
      const [file, web, items, markdown] = state.sessionEvents.plans;
      assert.equal(file?.path, '/home/u/.claude/plans/fix it.md');
      assert.equal(web?.path, undefined, 'only a file URI names a file');
      assert.deepEqual(items?.entries, [{ content: 'Step', status: 'pending', priority: 'high' }]);
      assert.equal(markdown?.content?.length, huge.length, 'kept whole: Open shows it all');
    });

    it('ignores an unknown plan removed, and refuses new plans past the bound with one warning each', () => {
      const { state } = session();
      state.apply({ sessionUpdate: 'plan_removed', planId: 'nope' });
      assert.match(state.warnings[0] ?? '', /plan_removed for unknown plan "nope"/);
      for (let i = 0; i <= MAX_PLANS; i++) state.apply({ sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: `p${i}`, content: 'x' } });
      assert.equal(state.sessionEvents.plans.length, MAX_PLANS);
      assert.match(state.warnings.at(-1) ?? '', /already has 100 plans/);
    });

    it('leaves the legacy checklist (plan entries) as it was', () => {
      const { state } = session();
      state.apply({ sessionUpdate: 'plan', entries: [{ content: 'Old style', status: 'in_progress', priority: 'low' }] });
      assert.deepEqual(state.plan, [{ content: 'Old style', status: 'in_progress', priority: 'low' }]);
      assert.deepEqual(state.sessionEvents.plans, []);
    });
  });

  describe('compactions', () => {
    it("merges Claude's sequence by compactionId: in progress, completed with the summary, a second status-only completed", () => {
      const { state, flush } = session();
      state.recordPrompt([text('/compact')]);
      state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' });
      assert.equal(flush()?.compactions, true);
      state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [text('We fixed the parser.')] });
      state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' });
      state.apply({ sessionUpdate: 'usage_update', used: 40_000, size: 1_000_000 });
      assert.deepEqual(shape(state), ['user: /compact', 'compaction c1 completed'], 'one divider');
      const [c] = state.sessionEvents.compactions;
      assert.equal(c?.summary, 'We fixed the parser.', 'the status-only repeat keeps the summary');
      assert.equal(state.sessionEvents.lastSummary, 'We fixed the parser.');
      state.endTurn();
      assert.equal(c?.unfinished, false);
    });

    it('appends summary chunks, patches summary and error (null clears), and cuts a huge summary', () => {
      const { state } = session();
      state.apply({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text('Part one. ') });
      state.apply({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text('Part two.') });
      const [c] = state.sessionEvents.compactions;
      assert.equal(c?.status, 'in_progress', 'a first-seen id from a chunk is in progress');
      assert.equal(c?.summary, 'Part one. Part two.');
      state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', error: 'Context too small' });
      assert.equal(c?.summary, 'Part one. Part two.', 'an absent summary is unchanged');
      assert.equal(c?.error, 'Context too small');
      state.apply({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', summary: null, error: null });
      assert.equal(c?.summary, '');
      assert.equal(c?.error, undefined);
      state.apply({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: text('y'.repeat(MAX_SUMMARY_CHARS + 10)) });
      const cut = state.sessionEvents.compactions[0];
      assert.equal(cut?.summary.length, MAX_SUMMARY_CHARS);
      assert.equal(cut?.summaryCut, true);
    });

    it('a compaction that never completes stays in progress, and says so once its turn ended', () => {
      const { state, flush } = session();
      state.apply({ sessionUpdate: 'compaction_update', compactionId: 'stuck', status: 'in_progress' });
      flush();
      const [c] = state.sessionEvents.compactions;
      assert.equal(c?.unfinished, false, 'while the turn runs it is just in progress');
      state.endTurn();
      assert.equal(flush()?.compactions, true);
      assert.equal(c?.status, 'in_progress');
      assert.equal(c?.unfinished, true);
      state.endTurn();
      assert.equal(flush(), undefined, 'said once');
      state.apply({ sessionUpdate: 'compaction_update', compactionId: 'stuck', status: 'completed' });
      assert.equal(c?.unfinished, false, 'news of it later clears it');
    });

    it("shows Claude's stand-in tool call (no capability) as the compaction, never as a tool call", () => {
      const { state } = session();
      const meta = { claudeCode: { toolName: 'compact' } };
      state.apply({ sessionUpdate: 'tool_call', toolCallId: 'toolu_c', title: 'Compact conversation', kind: 'think', status: 'in_progress', _meta: meta });
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_c', status: 'in_progress', _meta: meta });
      state.apply({ sessionUpdate: 'tool_call_update', toolCallId: 'toolu_c', status: 'completed', rawOutput: { trigger: 'manual', preTokens: 180_000, postTokens: 40_000, durationMs: 9000 }, _meta: meta });
      assert.deepEqual(state.toolCalls(), []);
      assert.deepEqual(shape(state), ['compaction toolu_c completed']);
      const [c] = state.sessionEvents.compactions;
      assert.deepEqual([c?.source, c?.tokensBefore, c?.tokensAfter], ['toolCall', 180_000, 40_000]);
      state.apply({ sessionUpdate: 'tool_call', toolCallId: 'toolu_f', title: 'Compact conversation', kind: 'think', status: 'in_progress', _meta: meta });
      state.apply({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'toolu_f',
        status: 'failed',
        content: [{ type: 'content', content: text('Compaction failed: Context too small') }],
      });
      const failed = state.sessionEvents.compactions[1];
      assert.deepEqual([failed?.status, failed?.error], ['failed', 'Context too small'], 'a later message without the meta still belongs to it');
      state.apply({ sessionUpdate: 'tool_call', toolCallId: 'other', title: 'Think', kind: 'think', status: 'completed', _meta: { claudeCode: { toolName: 'Task' } } });
      assert.equal(state.toolCalls().length, 1, 'any other call is a tool call');
    });
  });

  describe('notices', () => {
    it('puts notices in the conversation, a repeat counted on the one before it, and keeps the latest for the API', () => {
      const { state, flush } = session();
      state.apply({ sessionUpdate: 'notice', severity: 'warning', title: 'MCP server "broken" failed to start', description: 'Its tools are unavailable in this session. Run /mcp for the error.' });
      state.apply({ sessionUpdate: 'notice', severity: 'warning', title: 'MCP server "broken" failed to start', description: 'Its tools are unavailable in this session. Run /mcp for the error.' });
      assert.equal(flush()?.notices, true);
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('Answer.') });
      state.apply({ sessionUpdate: 'notice', severity: 'warning', title: 'MCP server "broken" failed to start', description: 'Its tools are unavailable in this session. Run /mcp for the error.' });
      assert.deepEqual(shape(state), ['notice warning MCP server "broken" failed to start ×2', 'agent: Answer.', 'notice warning MCP server "broken" failed to start']);
      assert.equal(state.notices.length, 3);
    });

    it("shows Claude's bold stand-in messages (no capability) as notices, not as the answer", () => {
      const { state } = session();
      state.apply({
        sessionUpdate: 'agent_message_chunk',
        content: text('**MCP server "broken" failed to start:** Its tools are unavailable in this session. Run /mcp for the error.'),
        _meta: { claudeCode: { kind: 'mcpServerStatus', server: 'broken', status: 'failed' } },
      });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('**Warning:** the CLI is old'), _meta: { claudeCode: { kind: 'informational', level: 'warning' } } });
      state.apply({ sessionUpdate: 'agent_message_chunk', content: text('**Bold** answer'), _meta: { claudeCode: { parentToolUseId: null } } });
      assert.deepEqual(shape(state), ['notice warning MCP server "broken" failed to start', 'notice warning Warning', 'agent: **Bold** answer']);
      assert.deepEqual(state.notices[0], { severity: 'warning', title: 'MCP server "broken" failed to start', description: 'Its tools are unavailable in this session. Run /mcp for the error.' });
      assert.deepEqual(state.notices[1], { severity: 'warning', title: 'Warning', description: 'the CLI is old' });
    });

    it('stops adding notice rows past the bound (an agent in a loop), with one warning', () => {
      const { state } = session();
      for (let i = 0; i < MAX_NOTICE_ENTRIES + 5; i++) state.apply({ sessionUpdate: 'notice', severity: 'info', title: `n${i}` });
      assert.equal(state.transcript.length, MAX_NOTICE_ENTRIES);
      assert.equal(state.warnings.filter((w) => w.includes('notices')).length, 1);
      assert.equal(state.notices.at(-1)?.title, `n${MAX_NOTICE_ENTRIES + 4}`, 'the API still has the latest');
    });
  });
});
