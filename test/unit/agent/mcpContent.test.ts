import * as assert from 'node:assert/strict';
import { actionFor } from '../../../src/agent/brains/scripted/commands';
import { parseScript } from '../../../src/agent/brains/scripted/parse';
import { callOutput, functionNames, kindFromAnnotations } from '../../../src/agent/mcp/content';

describe('MCP calls in the bundled agent', () => {
  it('chooses the card kind from the tool annotations, other by default', () => {
    assert.equal(kindFromAnnotations({ name: 'run' }), 'other');
    assert.equal(kindFromAnnotations({ name: 'read_file', annotations: { readOnlyHint: true } }), 'read');
    assert.equal(kindFromAnnotations({ name: 'grep', annotations: { readOnlyHint: true } }), 'search');
    assert.equal(kindFromAnnotations({ name: 'get_page', annotations: { readOnlyHint: true, openWorldHint: true } }), 'fetch');
    assert.equal(kindFromAnnotations({ name: 'web_search', annotations: { readOnlyHint: true, openWorldHint: true } }), 'search');
    // A tool that may change things stays `other`, whatever its name says.
    assert.equal(kindFromAnnotations({ name: 'search_and_replace', annotations: { readOnlyHint: false } }), 'other');
  });

  it('turns a result into card blocks and model text: text, image, resource, structured content', () => {
    const out = callOutput({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
      ],
    });
    assert.equal(out.isError, false);
    assert.deepEqual(out.blocks, [
      { type: 'text', text: 'hello' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
    ]);
    assert.equal(out.text, 'hello\n[image image/png, 3 bytes]\nfile:///a.txt:\ninside');
    assert.equal(callOutput({ content: [], structuredContent: { n: 1 } }).text, '{\n  "n": 1\n}');
    assert.deepEqual(callOutput({ content: [], isError: true }), { isError: true, blocks: [], text: 'The tool failed without saying why.' });
  });

  it('names MCP tools mcp__SERVER__TOOL within what chat APIs accept, each name unique', () => {
    assert.deepEqual(
      functionNames([
        { server: 'files', tool: 'read' },
        { server: 'my server', tool: 'get.page' },
        { server: 'my_server', tool: 'get_page' },
        { server: 'x'.repeat(80), tool: 'y' },
      ]),
      ['mcp__files__read', 'mcp__my_server__get_page', 'mcp__my_server__get_page_2', `mcp__${'x'.repeat(59)}`],
    );
  });

  it('reads /mcp, /mcp SERVER TOOL and its fenced JSON arguments', () => {
    const action = (text: string) => actionFor(parseScript(text)[0]!);
    assert.deepEqual(action('/mcp'), { kind: 'mcp-list' });
    assert.deepEqual(action('/mcp files echo'), { kind: 'mcp-call', server: 'files', tool: 'echo', arguments: {} });
    assert.deepEqual(action('/mcp files echo\n```json\n{"text": "hi"}\n```'), { kind: 'mcp-call', server: 'files', tool: 'echo', arguments: { text: 'hi' } });
    const bad = action('/mcp files echo\n```\n{not json\n```');
    assert.equal(bad.kind, 'usage');
    assert.match(bad.kind === 'usage' ? bad.message : '', /the fenced block is not JSON/);
    assert.equal(action('/mcp files').kind, 'usage');
    assert.equal(action('/mcp files echo\n```\n[1, 2]\n```').kind, 'usage');
  });
});
