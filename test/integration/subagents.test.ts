import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { AcpNativeApi, OpenSessionInfo, RenderedTreeItem } from '../../src/extension/api/api';
import { inWorkspace, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';
import { reloadActiveSession } from './support/reload';

/** The subagents' sessions of a parent, in the order they were announced. */
function childrenOf(api: AcpNativeApi, parentId: string | undefined): OpenSessionInfo[] {
  return api.sessions().filter((s) => s.parentSessionId === parentId);
}

/** The tree nodes under a session's node that are subagents ("subagent · …" descriptions). */
function subagentNodes(item: RenderedTreeItem | undefined): RenderedTreeItem[] {
  return (item?.children ?? []).filter((c) => c.description?.startsWith('subagent'));
}

describe('subagents (child sessions) from a Claude-like agent', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: { name: 'subagents', file: 'subagentAgent' } }, (started) => (api = started));

  it("opens the child as its own session: its calls are the child's, never the parent's, and the tree nests it", async () => {
    const parent = api.activeSessionId;
    assert.equal(await within('spawn', api.prompt('spawn Read hello')), 'end_turn');
    const [child] = childrenOf(api, parent);
    assert.ok(child, 'the child is listed with its parent');
    assert.equal(child.title, 'Read hello');
    assert.match(child.parentToolCallId ?? '', /^toolu_/);
    assert.equal(child.subagent?.state, 'idle (end_turn)');
    assert.equal(child.subagent?.report, 'hello.txt says hello.');
    assert.deepEqual(api.toolCalls(parent).map((c) => c.title), [], 'nothing of the child lands on the parent');
    assert.deepEqual(api.toolCalls(child.sessionId).map((c) => c.agentTitle), ['Read /workspace/hello.txt']);
    const [node] = subagentNodes(api.sessionTree(parent));
    assert.equal(node?.label, 'Read hello');
    assert.match(node?.description ?? '', /idle \(end_turn\) · 1 tool call/);
    assert.deepEqual(node?.children.map((c) => c.label), ['Read /workspace/hello.txt']);
    assert.equal(api.sessions().filter((s) => !s.parentSessionId).length, api.sessions().length - childrenOf(api, parent).length);
  });

  it('routes a child’s permission question to the child and marks it as needing you', async () => {
    const parent = api.activeSessionId;
    // The chat is hidden here: what waits counts. Sessions of the tests before may already.
    const waitingBefore = api.sessionsWaiting();
    const turn = api.prompt('spawn-ask');
    const question = await waitFor('the child’s question', () => api.pendingPermissions()[0]);
    const child = childrenOf(api, parent).find((c) => c.title === 'Run the tests');
    assert.equal(question.sessionId, child?.sessionId, 'asked in the child, not the parent');
    await waitFor('needs you', () => childrenOf(api, parent).find((c) => c.title === 'Run the tests')?.subagent?.state === 'needs you');
    assert.ok(api.answerPermission(question.id, 'allow_once'));
    assert.equal(await within('spawn-ask', turn), 'end_turn');
    assert.equal(childrenOf(api, parent).find((c) => c.title === 'Run the tests')?.subagent?.report, 'The user answered allow.');
    // The child's question and the parent's end are one session waiting: the one the chat shows.
    assert.equal(api.sessionsWaiting(), Math.max(waitingBefore, 1), 'one session waits, not the child besides its parent');
  });

  it('Stop cancels one running child (session/cancel with its id) while the parent turn goes on', async () => {
    const parent = api.activeSessionId;
    const turn = api.prompt('spawn-wait');
    const child = await waitFor('the running child', () => childrenOf(api, parent).find((c) => c.title === 'Wait for a stop' && c.subagent?.activity === 'running'));
    assert.equal(child.subagent?.cancellable, true);
    await api.cancel(child.sessionId);
    assert.equal(await within('spawn-wait', turn), 'end_turn', 'the parent turn ends on its own');
    assert.equal(childrenOf(api, parent).find((c) => c.title === 'Wait for a stop')?.subagent?.state, 'idle (cancelled)');
  });

  it('keeps a background child live after the parent turn ended, and says so', async () => {
    const parent = api.activeSessionId;
    assert.equal(await within('spawn-bg', api.prompt('spawn-bg')), 'end_turn');
    const child = await waitFor('the background child', () => childrenOf(api, parent).find((c) => c.title === 'Watch in the background'));
    assert.equal(child.subagent?.state, 'running in the background');
    assert.equal(child.busy, true);
    await within('finish-bg', api.prompt('finish-bg'));
    await waitFor('the background child’s report', () => childrenOf(api, parent).find((c) => c.title === 'Watch in the background')?.subagent?.report === 'Nothing happened.');
  });

  it('holds a child’s updates that came before its subagent_update and applies them when it does', async () => {
    const parent = api.activeSessionId;
    await within('spawn-early', api.prompt('spawn-early'));
    const child = childrenOf(api, parent).find((c) => c.title === 'Announced late');
    assert.ok(child);
    assert.deepEqual(api.toolCalls(child.sessionId).map((c) => c.agentTitle), ['Read /workspace/early.txt']);
  });

  it('refuses a child whose id is an open session, with a clear error, and merges nothing', async () => {
    const parent = api.activeSessionId;
    const before = api.sessions().length;
    await within('spawn-collide', api.prompt('spawn-collide'));
    assert.equal(api.sessions().length, before, 'no session was opened or merged');
    assert.equal(api.sessions().find((s) => s.sessionId === parent)?.parentSessionId, undefined, 'the parent did not become its own child');
    assert.ok(api.sessions().find((s) => s.sessionId === parent)?.agentRunning, 'the agent goes on');
  });

  it('nests a child of a child', async () => {
    const parent = api.activeSessionId;
    await within('spawn-nested', api.prompt('spawn-nested'));
    const outer = childrenOf(api, parent).find((c) => c.title === 'Outer task');
    assert.ok(outer);
    const [inner] = childrenOf(api, outer.sessionId);
    assert.equal(inner?.title, 'Inner task');
    assert.equal(inner?.subagent?.report, 'Inner done.');
    const outerNode = subagentNodes(api.sessionTree(parent)).find((n) => n.label === 'Outer task');
    assert.deepEqual(subagentNodes(outerNode).map((n) => n.label), ['Inner task']);
  });

  it('takes 50 children at once', async () => {
    const parent = api.activeSessionId;
    const before = childrenOf(api, parent).length;
    await within('spawn-many', api.prompt('spawn-many 50 2'));
    const children = childrenOf(api, parent).slice(before);
    assert.equal(children.length, 50);
    assert.ok(children.every((c) => c.subagent?.state === 'idle (end_turn)'));
    assert.ok(children.every((c) => api.toolCalls(c.sessionId).length === 2));
    assert.equal(api.toolCalls(parent).length, 0);
  });

  it('reviews per subagent: the log says who changed each file, and Undo takes back one subagent’s changes alone', async () => {
    const parent = api.activeSessionId;
    const mine = inWorkspace('by-parent.txt');
    const theirs = inWorkspace('by-subagent.txt');
    fs.writeFileSync(mine, 'original parent\n');
    fs.writeFileSync(theirs, 'original subagent\n');
    try {
      await within('spawn-edit', api.prompt(`spawn-edit ${mine} ${theirs}`));
      const child = childrenOf(api, parent).find((c) => c.title === 'Edit the second file');
      assert.ok(child);
      const changes = await waitFor(
        'both changes settled',
        () => {
          // The agent's edits (the watcher may also have seen this test create the files).
          const now = api.changes().filter((c) => (c.path === mine || c.path === theirs) && c.source === 'tool');
          return now.length === 2 && now.every((c) => c.hunks > 0) ? now : undefined;
        },
        15_000,
        () => JSON.stringify(api.changes().map((c) => [c.path, c.sessionId, c.hunks, c.status, c.source, c.reason])),
      );
      assert.deepEqual(changes.map((c) => [c.path, c.sessionId]), [[mine, parent], [theirs, child.sessionId]]);
      const review = await waitFor('the turn’s review node', () => api.sessionTree(parent)?.children.find((n) => n.description?.includes('(subagent)') || n.label.includes('(subagent)')));
      assert.match(`${review.label} ${review.description ?? ''}`, /Edit the second file \(subagent\): 1 file/);
      assert.ok(review.children.some((f) => f.label.endsWith('by-subagent.txt') && /Edit the second file \(subagent\)/.test(f.description ?? '')), 'the file says whose change it is');
      assert.ok(!review.children.some((f) => f.label.endsWith('by-parent.txt') && /\(subagent\)/.test(f.description ?? '')), 'the parent’s file is the parent’s');
      assert.equal(await api.undoSubagentChanges(child.sessionId), 1);
      assert.equal(fs.readFileSync(theirs, 'utf8'), 'original subagent\n', 'the subagent’s change is undone');
      assert.equal(fs.readFileSync(mine, 'utf8'), 'edited by the parent\n', 'the parent’s change stays');
    } finally {
      fs.rmSync(mine, { force: true });
      fs.rmSync(theirs, { force: true });
    }
  });

  it('keeps the children with the parent on session/load', async () => {
    const parent = api.activeSessionId;
    const before = childrenOf(api, parent).map((c) => [c.title, api.toolCalls(c.sessionId).length]);
    await reloadActiveSession(api);
    const after = childrenOf(api, api.activeSessionId).map((c) => [c.title, api.toolCalls(c.sessionId).length]);
    assert.deepEqual(after, before);
  });

  it('stops the children still running when their agent exits, rather than leaving them running', async () => {
    const parent = api.activeSessionId;
    assert.equal(await within('spawn-bg', api.prompt('spawn-bg')), 'end_turn');
    const child = await waitFor('the background child', () => childrenOf(api, parent).find((c) => c.title === 'Watch in the background' && c.busy));
    await within('the agent stop', api.stopAgent());
    const stopped = await waitFor('the child no longer busy', () => childrenOf(api, parent).find((c) => c.sessionId === child.sessionId && !c.busy));
    assert.equal(stopped.subagent?.state, 'idle (agent exited)');
    assert.equal(stopped.subagent?.activity, 'idle');
  });
});
