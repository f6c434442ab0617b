import * as assert from 'node:assert/strict';
import { MAX_MARKDOWN_CHARS, renderMarkdown } from '../../../../media/chat/markdown';

describe('chat markdown of hostile input', () => {
  it('shows raw HTML as text: no script, no event handlers, no iframes', () => {
    const html = renderMarkdown('Hi <script>alert(1)</script> <img src=x onerror=alert(2)> <iframe src="https://evil"></iframe>\n\n<div onclick="x()">block</div>');
    assert.doesNotMatch(html, /<script|<img|<iframe|<div/i);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  it('drops javascript:, vbscript:, data: and command: links but keeps http(s) and mailto', () => {
    for (const target of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>', 'command:workbench.action.quit', 'file:///etc/passwd']) {
      const html = renderMarkdown(`[click](${target}) <${target}>`);
      assert.doesNotMatch(html, /href=/i, `${target} → ${html}`);
    }
    assert.match(renderMarkdown('[docs](https://example.com/a?b=1)'), /<a href="https:\/\/example\.com\/a\?b=1" rel="noopener noreferrer">docs<\/a>/);
    assert.match(renderMarkdown('[me](mailto:me@example.com)'), /href="mailto:me@example\.com"/);
  });

  it('loads no images, not even from https: only their alt text is shown', () => {
    const html = renderMarkdown('![a cat](https://example.com/cat.png) ![x](data:image/png;base64,AAAA)');
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /a cat/);
  });

  it('escapes attributes and code', () => {
    const html = renderMarkdown('[x](https://e.com/"onmouseover="alert(1)) `<b>` \n\n```html\n<script>x</script>\n```');
    assert.doesNotMatch(html, /"onmouseover="/);
    assert.match(html, /<code>&lt;b&gt;<\/code>/);
    assert.match(html, /&lt;script&gt;x&lt;\/script&gt;/);
  });

  it('renders a huge single line quickly, and a text too big to parse as escaped plain text', () => {
    const line = 'word '.repeat(150_000 / 5);
    let started = performance.now();
    const html = renderMarkdown(line);
    assert.ok(performance.now() - started < 1000, `a 150k-character line took ${(performance.now() - started).toFixed(0)} ms`);
    assert.ok(html.startsWith('<p>'));
    const huge = `<script>${'x'.repeat(MAX_MARKDOWN_CHARS)}</script>`;
    started = performance.now();
    const plain = renderMarkdown(huge);
    assert.ok(performance.now() - started < 1000);
    assert.ok(plain.startsWith('<pre class="plain">&lt;script&gt;'));
    assert.doesNotMatch(plain, /<script/);
  });

  it('survives pathological nesting without blowing up', () => {
    const started = performance.now();
    renderMarkdown('>'.repeat(10_000) + ' deep');
    renderMarkdown('['.repeat(20_000) + ']('.repeat(20_000));
    renderMarkdown('*a '.repeat(20_000));
    assert.ok(performance.now() - started < 3000, `took ${(performance.now() - started).toFixed(0)} ms`);
  });
});
