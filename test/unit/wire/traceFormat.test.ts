import * as assert from 'node:assert/strict';
import { MASK, TraceFormatter, formatSize, maskSecrets } from '../../../src/extension/wire/traceFormat';

describe('protocol trace (the "ACP Trace" channel)', () => {
  it('masks secrets: api keys in _meta, tokens, passwords, every env and header value', () => {
    const masked = maskSecrets({
      method: 'authenticate',
      params: { methodId: 'key', _meta: { 'api-key': 'sk-live-123', apiKey: 'x', note: 'kept' } },
      mcpServers: [
        { name: 'gh', command: 'gh-mcp', env: [{ name: 'GITHUB_TOKEN', value: 'ghp_abc' }, { name: 'MODE', value: 'fast' }] },
        { name: 'web', url: 'https://x', headers: [{ name: 'Authorization', value: 'Bearer abc' }] },
      ],
      env: { OPENAI_API_KEY: 'sk-1' },
      password: 'hunter2',
      nested: { accessToken: 'tok', count: 3 },
    }) as {
      params: { _meta: Record<string, unknown> };
      mcpServers: { env: { name: string }[] }[];
      nested: { count: number };
    };
    const text = JSON.stringify(masked);
    for (const secret of ['sk-live-123', 'ghp_abc', 'fast', 'Bearer abc', 'sk-1', 'hunter2', 'tok"']) assert.ok(!text.includes(secret), `${secret} leaked`);
    assert.equal(masked.params._meta.note, 'kept');
    assert.equal(masked.params._meta['api-key'], MASK);
    assert.equal(masked.mcpServers[0]?.env[0]?.name, 'GITHUB_TOKEN', 'names stay readable');
    assert.equal(masked.nested.count, 3);
  });

  it('writes one line per message: direction, kind, method, id, size; a response names its request', () => {
    const trace = new TraceFormatter();
    const request = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params: { sessionId: 's' } });
    assert.equal(trace.format('send', request, 'messages'), `→ request #3 session/prompt (${formatSize(request.length)})`);
    assert.match(trace.format('receive', '{"jsonrpc":"2.0","method":"session/update","params":{}}', 'messages') ?? '', /^← notification session\/update \(\d+ B\)$/);
    assert.match(trace.format('receive', '{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}', 'messages') ?? '', /^← response #3 session\/prompt/);
    assert.match(trace.format('receive', '{"jsonrpc":"2.0","id":9,"method":"fs/read_text_file","params":{}}', 'messages') ?? '', /request #9 fs\/read_text_file/);
    assert.match(trace.format('send', '{"jsonrpc":"2.0","id":9,"error":{"code":-1,"message":"no"}}', 'messages') ?? '', /^→ error #9 fs\/read_text_file/);
    assert.match(trace.format('receive', 'not json', 'messages') ?? '', /not JSON/);
    assert.equal(trace.format('send', request, 'off'), undefined);
  });

  it('adds the body at verbose, masked', () => {
    const trace = new TraceFormatter();
    const line = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'authenticate', params: { methodId: 'k', _meta: { 'api-key': 'sk-secret' } } });
    const out = trace.format('send', line, 'verbose') ?? '';
    assert.match(out, /"methodId": "k"/);
    assert.ok(!out.includes('sk-secret'));
    assert.ok(out.includes(MASK));
  });
});
