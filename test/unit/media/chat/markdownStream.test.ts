import * as assert from 'node:assert/strict';
import { MAX_MARKDOWN_CHARS, md, renderMarkdown } from '../../../../media/chat/markdown';
import { StreamingMarkdown, type MarkdownUpdate } from '../../../../media/chat/markdownStream';

/** What a page shows after applying updates the way render.ts does: final blocks, then the open tail. */
class Page {
  finished: string[] = [];
  tail = '';
  plain: string | undefined;
  /** How many times final HTML was replaced (a reset): the finished blocks must survive growth. */
  resets = 0;

  apply(update: MarkdownUpdate | undefined): void {
    if (!update) return;
    if (update.kind === 'plain') {
      this.plain = update.reset ? update.text : (this.plain ?? '') + update.text;
      this.finished = [];
      this.tail = '';
      return;
    }
    this.plain = undefined;
    if (update.reset) {
      this.resets++;
      this.finished = [];
    }
    if (update.finished) this.finished.push(update.finished);
    this.tail = update.tail;
  }

  get html(): string {
    return this.plain !== undefined ? `<pre class="plain">${this.plain}</pre>` : this.finished.join('') + this.tail;
  }
}

function stream(text: string, chunk: number): { page: Page; tails: number[] } {
  const markdown = new StreamingMarkdown();
  const page = new Page();
  const tails: number[] = [];
  for (let end = chunk; end < text.length + chunk; end += chunk) {
    page.apply(markdown.update(text.slice(0, Math.min(end, text.length))));
    tails.push(page.tail.length);
  }
  return { page, tails };
}

const DOCUMENTS: Record<string, string> = {
  'headings and paragraphs': '# Title\n\nSome *text* with `code`.\nSame paragraph.\n\n## Part\n\nMore text here.\n',
  'setext heading made by a later line': 'A paragraph\nthat becomes a heading\n---\n\nafter it\n',
  'lists, tight and loose, nested': '- one\n- two\n  - nested\n- three\n\n1. first\n\n2. second\n\n   still second\n\ntext after\n\n3) a\n4) b\n',
  'a fence that stays open, then closes': 'Before\n\n```ts\nconst a = 1;\n\n# not a heading\n\n- not a list\n```\n\nAfter the fence\n',
  'tables': '| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nparagraph\n\n| c |\n|---|\n| 5 |\n',
  'blockquotes with lazy lines': '> quoted\nlazy continuation\n\n> another\n> > nested\n\nplain\n',
  'indented code and rules': 'para\n\n    code line\n    more code\n\n***\n\n___\ntext\n',
  'CRLF line ends': 'line one\r\n\r\n- item\r\n- item two\r\n\r\n```\r\ncode\r\n```\r\n\r\nend\r\n',
  'a heading interrupts a paragraph': 'para\n# heading\npara two\n> quote\n',
};

describe('streaming markdown (incremental rendering of a growing message)', () => {
  for (const [name, text] of Object.entries(DOCUMENTS)) {
    it(`renders ${name} exactly as a whole render, whatever the chunk size`, () => {
      for (const chunk of [1, 2, 3, 5, 7, 16, 64, text.length]) {
        const { page } = stream(text, chunk);
        assert.equal(page.html, renderMarkdown(text), `chunk ${chunk}`);
        assert.equal(page.resets, 0, `chunk ${chunk}: finished blocks were rendered again`);
      }
    });
  }

  it('renders random markdown exactly as a whole render, streamed in random chunks', () => {
    // A small seeded generator: the same documents every run.
    let seed = 15;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const lines = ['text', 'more *words*', '', '', '# head', '- item', '  - sub', '1. one', '2. two', '10) ten', '> quote', '```', '    indented',
      '---', '===', '| a | b |', '|---|---|', '* star', '+ plus', '  continued', '\\', '[x]', '<b>', '***', '`code`', '~~~', '2', '-'];
    for (let doc = 0; doc < 150; doc++) {
      const text = Array.from({ length: 4 + Math.floor(random() * 30) }, () => pick(lines)).join('\n');
      const markdown = new StreamingMarkdown();
      const page = new Page();
      for (let end = 0; end < text.length; ) {
        end = Math.min(text.length, end + 1 + Math.floor(random() * 12));
        page.apply(markdown.update(text.slice(0, end)));
        assert.equal(page.html, renderMarkdown(text.slice(0, end)), JSON.stringify(text.slice(0, end)));
      }
      assert.equal(page.resets, 0);
    }
  });

  it('keeps the open tail to the last block: a long answer is not re-rendered per chunk', () => {
    const paragraphs = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} with **bold** text and a [link](https://example.com/${i}).\n\n`);
    const text = paragraphs.join('') + '```js\n' + 'let x = 1;\n'.repeat(50) + '```\n';
    const { page, tails } = stream(text, 20);
    assert.equal(page.html, renderMarkdown(text));
    const longestTail = Math.max(...tails);
    // The tail is one paragraph or the code block, never the message (about 40 KB of HTML).
    assert.ok(longestTail < 1000, `longest tail ${longestTail} characters of HTML`);
    assert.ok(page.finished.length > 300, 'finished blocks are added as they finish');
  });

  it('renders a message with a link reference definition whole (it gives meaning to text before it)', () => {
    const text = 'See [the docs][d] first.\n\nThen more.\n\n[d]: https://example.com/docs\n\nAnd [d] again.\n';
    const { page } = stream(text, 4);
    assert.equal(page.html, renderMarkdown(text));
    assert.match(page.html, /<a href="https:\/\/example\.com\/docs"[^>]*>the docs<\/a>/);
  });

  it('starts over when the text does not extend what was rendered', () => {
    const markdown = new StreamingMarkdown();
    const page = new Page();
    page.apply(markdown.update('# One\n\ntext\n\nmore'));
    page.apply(markdown.update('# Two\n\nother'));
    assert.equal(page.html, renderMarkdown('# Two\n\nother'));
    assert.equal(markdown.update('# Two\n\nother'), undefined, 'the same text changes nothing');
  });

  it('renders appended text exactly as the whole text, without being given the whole text', () => {
    for (const [name, text] of Object.entries(DOCUMENTS)) {
      for (const chunk of [1, 3, 16]) {
        const markdown = new StreamingMarkdown();
        const page = new Page();
        for (let at = 0; at < text.length; at += chunk) page.apply(markdown.append(text.slice(at, at + chunk)));
        assert.equal(page.html, renderMarkdown(text), `${name}, chunk ${chunk}`);
        assert.equal(page.resets, 0, `${name}, chunk ${chunk}: finished blocks were rendered again`);
        assert.equal(markdown.length, text.length);
        assert.equal(markdown.text, text);
      }
    }
    assert.equal(new StreamingMarkdown().append(''), undefined, 'nothing appended changes nothing');
  });

  it('parses only the open end as text is appended, however long the message', () => {
    // The cost of an append follows the open blocks, not the message: 150 KB of paragraphs
    // appended a line at a time never hands the parser more than the last blocks.
    const markdown = new StreamingMarkdown();
    const page = new Page();
    const parse = md.parse.bind(md);
    let longest = 0;
    md.parse = (source, env) => {
      longest = Math.max(longest, source.length);
      return parse(source, env);
    };
    let text = '';
    try {
      for (let i = 0; text.length < 150_000; i++) {
        const line = `Paragraph ${i} says something about *step ${i}*.\n\n`;
        text += line;
        page.apply(markdown.append(line));
      }
    } finally {
      md.parse = parse;
    }
    assert.ok(longest < 200, `the parser was given ${longest} characters at once`);
    assert.equal(page.html, renderMarkdown(text));
  });

  it('starts over from an empty text', () => {
    const markdown = new StreamingMarkdown();
    const page = new Page();
    page.apply(markdown.update('# One\n\ntext\n\nmore'));
    page.apply(markdown.update(''));
    assert.equal(page.html, '');
  });

  it('switches to plain text past the size bound, then appends only what arrives', () => {
    const markdown = new StreamingMarkdown();
    const page = new Page();
    const line = 'a line of <b>text</b>\n';
    let text = '';
    const updates: MarkdownUpdate[] = [];
    while (text.length <= MAX_MARKDOWN_CHARS + 10 * line.length) {
      text += line.repeat(500);
      const update = markdown.update(text);
      if (update) updates.push(update);
      page.apply(update);
    }
    const plain = updates.filter((u) => u.kind === 'plain');
    assert.equal(plain.filter((u) => u.reset).length, 1, 'the whole text once, when it crosses the bound');
    assert.ok(plain.slice(1).every((u) => u.text.length === line.length * 500), 'then only the added text');
    assert.equal(page.plain, text);
  });
});
