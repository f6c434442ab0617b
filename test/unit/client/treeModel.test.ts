import * as assert from 'node:assert/strict';
import { cardIcon, cardOpens, ToolCallStore } from '../../../src/extension/core/toolCalls';
import {
  CALLS_PER_GROUP,
  callChildren,
  callGroupLabel,
  callGroupNode,
  callGroupOf,
  callLayout,
  callNode,
  kindIcon,
  labelOf,
  sessionNode,
  statusLabel,
} from '../../../src/extension/core/treeModel';

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

  it('lists up to 500 calls under their session and folds older calls of a longer session into groups of 500', () => {
    assert.equal(CALLS_PER_GROUP, 500);
    assert.deepEqual(callLayout(0), { groups: 0, firstListed: 0 });
    assert.deepEqual(callLayout(1), { groups: 0, firstListed: 0 });
    assert.deepEqual(callLayout(500), { groups: 0, firstListed: 0 }, 'a 500-call session looks as it always did');
    assert.deepEqual(callLayout(501), { groups: 1, firstListed: 500 });
    assert.deepEqual(callLayout(1000), { groups: 1, firstListed: 500 });
    assert.deepEqual(callLayout(10_000), { groups: 19, firstListed: 9_500 }, 'a refresh fetches 19 groups and 500 calls, not 10,000 rows');
    assert.deepEqual(callLayout(10_001), { groups: 20, firstListed: 10_000 });
  });

  it('finds the group of a call, or none when the call is listed under its session', () => {
    assert.equal(callGroupOf(0, 500), undefined);
    assert.equal(callGroupOf(499, 500), undefined);
    assert.equal(callGroupOf(0, 501), 0);
    assert.equal(callGroupOf(499, 501), 0);
    assert.equal(callGroupOf(500, 501), undefined, 'the newest calls stay under the session');
    assert.equal(callGroupOf(9_499, 10_000), 18);
    assert.equal(callGroupOf(9_500, 10_000), undefined);
  });

  it('labels a group by the calls it holds, counted from 1, with a stable id', () => {
    assert.equal(callGroupLabel(0), 'Tool calls 1–500');
    assert.equal(callGroupLabel(18), 'Tool calls 9,001–9,500');
    assert.deepEqual(callGroupNode('s1', 2), { type: 'callGroup', id: 'g:s1:2', sessionId: 's1', group: 2 });
  });
});
