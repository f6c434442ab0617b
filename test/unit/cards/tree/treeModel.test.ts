import * as assert from 'node:assert/strict';
import { cardIcon, cardOpens, ToolCallStore } from '../../../../src/extension/session/model/toolCalls';
import {
  CALLS_PER_GROUP,
  callChildren,
  callGroupLabel,
  callGroupNode,
  callGroupOf,
  callParent,
  callLayout,
  callNode,
  kindIcon,
  labelOf,
  sessionNode,
  statusLabel,
} from '../../../../src/extension/cards/tree/model/treeModel';

describe('Tool Calls tree model', () => {
  it('gives a call its text, locations and raw input as children, with stable ids', () => {
    const store = new ToolCallStore();
    store.applyToolCall({
      toolCallId: 'c1',
      title: 'Read src/a.ts',
      kind: 'read',
      status: 'completed',
      content: [
        { type: 'content', content: { type: 'text', text: 'line one\nline two' } },
        { type: 'diff', path: '/ws/a.ts', oldText: 'a', newText: 'b' },
      ],
      locations: [{ path: '/ws/src/a.ts', line: 12 }],
      rawInput: { path: '/ws/src/a.ts' },
    });
    const call = store.get('c1')!;
    const children = callChildren('s1', call);
    assert.deepEqual(
      children.map((c) => [c.type, c.id]),
      [
        ['text', 'c:s1:c1:t0'],
        ['location', 'c:s1:c1:l0'],
        ['rawInput', 'c:s1:c1:in'],
      ],
    );
    const location = children[1];
    assert.ok(location.type === 'location' && location.line === 12 && location.path === '/ws/src/a.ts');
    assert.deepEqual(callChildren('s1', call), children, 'same ids on every refresh');
    assert.equal(callNode('s1', 'c1').id, 'c:s1:c1');
    assert.equal(sessionNode('s1').id, 's:s1');
  });

  it('leaves out empty raw input and blank text', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'c2', title: 'Think', rawInput: {}, content: [{ type: 'content', content: { type: 'text', text: '  ' } }] });
    assert.deepEqual(callChildren('s', store.get('c2')!), []);
  });

  it('labels long and multi-line text by its first line, shortened', () => {
    assert.equal(labelOf('short'), 'short');
    assert.equal(labelOf('first\nsecond'), 'first …');
    const long = 'x'.repeat(200);
    assert.equal(labelOf(long).length, 80);
    assert.ok(labelOf(long).endsWith('…'));
  });

  it('labels text by its first meaningful line: code fences and blank lines are skipped', () => {
    // What Claude's adapter sends for a Read (test/fixtures/acp/claude-agent-acp-turn.jsonl).
    assert.equal(labelOf('```\n1\thello world\n```'), '1 hello world');
    assert.equal(labelOf('\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n'), 'const a = 1; …');
    assert.equal(labelOf('~~~\r\nCRLF text\r\n~~~'), 'CRLF text');
    assert.equal(labelOf('```\n```'), '``` …', 'a text of fences only still gets a label');
    assert.equal(labelOf('use `x` here'), 'use `x` here', 'inline code is not a fence');
  });

  it('opens each card kind in its own place', () => {
    assert.equal(cardOpens('diff'), 'diff');
    assert.equal(cardOpens('terminal'), 'terminal');
    assert.equal(cardOpens('generic'), 'tree');
    assert.equal(cardIcon('terminal'), 'terminal');
    assert.throws(() => cardOpens('image' as never), /Unexpected card kind/);
  });

  it('names statuses and picks icons by kind, falling back by card', () => {
    assert.equal(statusLabel('in_progress'), 'running');
    assert.equal(statusLabel('completed'), 'done');
    assert.equal(kindIcon('read', 'generic'), 'book');
    assert.equal(kindIcon('execute', 'terminal'), 'terminal');
    assert.equal(kindIcon(undefined, 'diff'), 'diff');
    assert.equal(kindIcon('other', 'generic'), 'tools');
  });

  it('lists up to 100 calls under their session and folds older calls of a longer session into groups of 100', () => {
    assert.equal(CALLS_PER_GROUP, 100);
    assert.deepEqual(callLayout(0), { groups: 0, firstListed: 0 });
    assert.deepEqual(callLayout(1), { groups: 0, firstListed: 0 });
    assert.deepEqual(callLayout(100), { groups: 0, firstListed: 0 }, 'a 100-call session has no group');
    assert.deepEqual(callLayout(101), { groups: 1, firstListed: 100 });
    assert.deepEqual(callLayout(200), { groups: 1, firstListed: 100 });
    assert.deepEqual(callLayout(10_000), { groups: 99, firstListed: 9_900 }, 'a refresh fetches 99 groups and 100 calls, not 10,000 rows');
    assert.deepEqual(callLayout(10_001), { groups: 100, firstListed: 10_000 });
  });

  it('finds the group of a call, or none when the call is listed under its session', () => {
    assert.equal(callGroupOf(0, 100), undefined);
    assert.equal(callGroupOf(99, 100), undefined);
    assert.equal(callGroupOf(0, 101), 0);
    assert.equal(callGroupOf(99, 101), 0);
    assert.equal(callGroupOf(100, 101), undefined, 'the newest calls stay under the session');
    assert.equal(callGroupOf(9_899, 10_000), 98);
  });

  it('gives VS Code a call\'s parent: its session, its group, none once the call or its session is gone', () => {
    assert.deepEqual(callParent({ order: 150, count: 200 }, false), { type: 'session' });
    assert.deepEqual(callParent({ order: 5, count: 200 }, false), { type: 'callGroup', group: 0 });
    assert.deepEqual(callParent({ order: 5, count: 200 }, true), { type: 'session' }, 'a followed call that folded: the reveal is given up, the group stays closed');
    assert.equal(callParent(undefined, false), undefined, 'a closed session: VS Code is not sent looking for its node');
    assert.equal(callParent(undefined, true), undefined);
    assert.equal(callGroupOf(9_900, 10_000), undefined);
  });

  it('labels a group by the calls it holds, counted from 1, with a stable id', () => {
    assert.equal(callGroupLabel(0), 'Tool calls 1–100');
    assert.equal(callGroupLabel(98), 'Tool calls 9,801–9,900');
    assert.deepEqual(callGroupNode('s1', 2), { type: 'callGroup', id: 'g:s1:2', sessionId: 's1', group: 2 });
  });
});
