import * as assert from 'node:assert/strict';
import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { cardOf, ToolCallStore } from '../../../src/extension/session/model/toolCalls';

const snippet: ToolCallContent = { type: 'diff', path: '/p/hello.txt', oldText: 'world', newText: 'ACP' };
const hunk: ToolCallContent = { type: 'diff', path: '/p/hello.txt', oldText: 'a\nhello world\nb', newText: 'a\nhello ACP\nb' };

describe('ToolCallStore (ACP patch semantics)', () => {
  it('creates a call with defaults and keeps arrival order', () => {
    const store = new ToolCallStore();
    const first = store.applyToolCall({ toolCallId: 'a', title: 'Read File' });
    store.applyToolCall({ toolCallId: 'b', title: 'Edit', kind: 'edit', status: 'in_progress' });
    assert.equal(first.created, true);
    assert.deepEqual(
      store.all().map((c) => [c.id, c.order, c.status, c.kind]),
      [
        ['a', 0, 'pending', undefined],
        ['b', 1, 'in_progress', 'edit'],
      ],
    );
    assert.deepEqual(store.get('a')?.content, []);
    assert.deepEqual(store.get('a')?.locations, []);
    assert.equal(cardOf(store.get('a')!), 'generic');
  });

  it('patches only the fields an update carries', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'e', title: 'Edit', kind: 'edit', rawInput: { file_path: '/p/hello.txt' } });
    const applied = store.applyUpdate({ toolCallId: 'e', status: 'in_progress' });
    const call = store.get('e')!;
    assert.equal(applied.changed, true);
    assert.equal(call.status, 'in_progress');
    assert.equal(call.title, 'Edit');
    assert.equal(call.kind, 'edit');
    assert.deepEqual(call.rawInput, { file_path: '/p/hello.txt' });
  });

  it('treats null in an update as "unchanged"', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'e', title: 'Edit', kind: 'edit', status: 'in_progress', content: [snippet] });
    const applied = store.applyUpdate({ toolCallId: 'e', title: null, kind: null, status: null, content: null, locations: null, rawInput: null });
    const call = store.get('e')!;
    assert.equal(applied.changed, false);
    assert.equal(call.title, 'Edit');
    assert.equal(call.status, 'in_progress');
    assert.deepEqual(call.content, [snippet]);
  });

  it('replaces a call-time snippet with the applied hunks, bumping contentRevision', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'e', title: 'Edit hello.txt', kind: 'edit', content: [snippet] });
    assert.equal(store.get('e')!.contentRevision, 0);
    const applied = store.applyUpdate({
      toolCallId: 'e',
      content: [hunk, { ...hunk, oldText: 'x', newText: 'y' }],
      locations: [{ path: '/p/hello.txt', line: 2 }],
    });
    const call = store.get('e')!;
    assert.equal(applied.contentReplaced, true);
    assert.equal(call.contentRevision, 1);
    assert.equal(call.content.length, 2, 'content replaced wholesale, not merged');
    assert.deepEqual(call.content[0], hunk);
    assert.deepEqual(call.locations, [{ path: '/p/hello.txt', line: 2 }]);
    assert.equal(cardOf(call), 'diff');
  });

  it('does not count identical content as a replacement (a permission request repeats it)', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'e', title: 'Edit', content: [snippet] });
    const revision = store.get('e')!.revision;
    const applied = store.applyUpdate({ toolCallId: 'e', title: 'Edit', content: [{ ...snippet }] });
    assert.equal(applied.changed, false);
    assert.equal(applied.contentReplaced, false);
    assert.equal(store.get('e')!.revision, revision);
    assert.equal(store.get('e')!.contentRevision, 0);
  });

  it('bumps revision on every change', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'x', title: 'Run' });
    store.applyUpdate({ toolCallId: 'x', status: 'in_progress' });
    store.applyUpdate({ toolCallId: 'x', rawOutput: 'done' });
    assert.equal(store.get('x')!.revision, 2);
  });

  it('an update repeating every field changes nothing; each field that differs is applied', () => {
    const store = new ToolCallStore();
    const message = {
      toolCallId: 'r',
      title: 'Run',
      kind: 'execute' as const,
      status: 'in_progress' as const,
      content: [{ type: 'terminal' as const, terminalId: 't1' }],
      locations: [{ path: '/p/a.ts', line: 3 }],
      rawInput: { command: 'ls' },
      rawOutput: { code: 0 },
    };
    store.applyToolCall(message);
    const repeat = store.applyUpdate({ ...message, name: undefined, content: [{ type: 'terminal', terminalId: 't1' }], rawInput: { command: 'ls' } });
    assert.deepEqual([repeat.changed, repeat.contentReplaced, repeat.warnings.length, store.get('r')!.revision], [false, false, 0, 0]);
    const renamed = store.applyUpdate({ toolCallId: 'r', name: 'Bash', rawOutput: { code: 1 }, locations: [] });
    const call = store.get('r')!;
    assert.deepEqual([renamed.changed, renamed.contentReplaced, call.revision, call.contentRevision], [true, false, 1, 0]);
    assert.deepEqual([call.name, call.rawOutput, call.locations, call.terminalId], ['Bash', { code: 1 }, [], 't1']);
    const linked = store.applyUpdate({ toolCallId: 'r', _meta: { terminal_info: { terminal_id: 't2' } } });
    assert.deepEqual([linked.changed, call.terminalId, call.revision], [true, 't2', 2]);
  });

  it('a call created from an update has no raw input or output it was not sent', () => {
    const store = new ToolCallStore();
    const bare = store.applyUpdate({ toolCallId: 'ghost', status: 'completed' }).call;
    assert.equal(Object.hasOwn(bare, 'rawInput'), false);
    assert.equal(Object.hasOwn(bare, 'rawOutput'), false);
    const withInput = store.applyUpdate({ toolCallId: 'ghost2', rawInput: { q: 1 } }).call;
    assert.deepEqual(withInput.rawInput, { q: 1 });
  });

  it('tolerates an update for an unknown id: creates the call and warns', () => {
    const store = new ToolCallStore();
    const applied = store.applyUpdate({ toolCallId: 'ghost', status: 'completed', content: [snippet] });
    assert.equal(applied.created, true);
    assert.equal(applied.call.title, 'ghost', 'the id stands in for the missing title');
    assert.equal(applied.call.status, 'completed');
    assert.equal(cardOf(applied.call), 'diff');
    assert.match(applied.warnings.join('\n'), /unknown tool call "ghost"/);
    const titled = store.applyUpdate({ toolCallId: 'ghost2', title: 'Edit a.ts' });
    assert.equal(titled.call.title, 'Edit a.ts');
  });

  it('a repeated tool_call replaces every field but keeps its place', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'a', title: 'first' });
    store.applyToolCall({ toolCallId: 'b', title: 'Edit', kind: 'edit', status: 'completed', rawInput: { x: 1 }, content: [snippet] });
    const applied = store.applyToolCall({ toolCallId: 'b', title: 'Edit again' });
    const call = store.get('b')!;
    assert.equal(applied.created, false);
    assert.equal(applied.contentReplaced, true);
    assert.equal(call.order, 1);
    assert.equal(call.title, 'Edit again');
    assert.equal(call.kind, undefined);
    assert.equal(call.status, 'pending');
    assert.equal(call.rawInput, undefined);
    assert.deepEqual(call.content, []);
    assert.deepEqual(store.all().map((c) => c.id), ['a', 'b']);
  });

  it('takes the terminal id from terminal content or _meta.terminal_info', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'bash', title: 'Terminal', kind: 'execute', content: [{ type: 'terminal', terminalId: 'T1' }] });
    store.applyToolCall({ toolCallId: 'codex', title: 'ls', _meta: { terminal_info: { terminal_id: 'T2', cwd: '/p' } } });
    assert.equal(store.get('bash')!.terminalId, 'T1');
    assert.equal(store.get('codex')!.terminalId, 'T2');
    assert.equal(cardOf(store.get('bash')!), 'terminal');
    // A later update without terminal content does not unlink it.
    store.applyUpdate({ toolCallId: 'bash', content: [{ type: 'content', content: { type: 'text', text: 'ok' } }] });
    assert.equal(store.get('bash')!.terminalId, 'T1');
  });

  it('links a terminal named only by output, once', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'c', title: 'Run' });
    assert.equal(store.linkTerminal('c', 'T'), true);
    assert.equal(store.linkTerminal('c', 'U'), false);
    assert.equal(store.linkTerminal('missing', 'T'), false);
    assert.equal(store.get('c')!.terminalId, 'T');
    assert.equal(cardOf(store.get('c')!), 'terminal');
  });

  it('prefers diff over terminal when a card has both', () => {
    const store = new ToolCallStore();
    store.applyToolCall({ toolCallId: 'c', title: 'x', content: [{ type: 'terminal', terminalId: 'T' }, snippet] });
    assert.equal(cardOf(store.get('c')!), 'diff');
  });

  it('drops malformed content items with a warning instead of passing them to renderers', () => {
    const store = new ToolCallStore();
    const applied = store.applyToolCall({
      toolCallId: 'm',
      title: 'odd',
      content: [snippet, { type: 'hologram' } as unknown as ToolCallContent, { type: 'diff', path: 3 } as unknown as ToolCallContent],
      locations: [{ path: '/p/a' }, { line: 1 } as never],
    });
    assert.deepEqual(applied.call.content, [snippet]);
    assert.deepEqual(applied.call.locations, [{ path: '/p/a' }]);
    assert.equal(applied.warnings.length, 3);
  });
});
