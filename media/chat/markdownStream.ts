/**
 * Markdown of a message that grows while the agent streams it, rendered incrementally: blocks that
 * can no longer change are rendered once and kept; only the open end of the message (its last
 * two top-level blocks) is parsed and rendered again as text arrives. So each update costs what
 * the open end holds, not the whole message, and the page keeps the DOM of the finished blocks as
 * it is (their selection, their scroll position).
 *
 * Why the split is safe: CommonMark builds blocks line by line. Appended text changes the last
 * block (a setext underline turns a paragraph into a heading, a fence closes), and the last block
 * changing what it is can merge it into the one before ("2" becoming "2." continues the list
 * above it). A block followed by a complete block is settled. The exception is a link reference
 * definition (`[x]: https://…`), which gives meaning to `[x]` anywhere in the message: a message
 * that has one is rendered whole each time.
 *
 * Pure apart from markdown-it (no DOM), so it is unit-tested in Node; render.ts applies the updates.
 */
import type Token from 'markdown-it/lib/token.mjs';
import { MAX_MARKDOWN_CHARS, md } from './markdown';

export type MarkdownUpdate =
  /**
   * `finished`: HTML of blocks that just became final, to add after the earlier final ones (or to
   * start from, with `reset`); `tail`: HTML of the open last block, replacing the previous tail.
   */
  | { readonly kind: 'markdown'; readonly reset: boolean; readonly finished: string; readonly tail: string }
  /** Too long to parse in a frame: shown as plain text; `text` is all of it (`reset`) or what was added. */
  | { readonly kind: 'plain'; readonly reset: boolean; readonly text: string };

const LINE_BREAK = /\r\n?|\n/g;

/** Top-level blocks left open at the end (see `update`). */
const OPEN_BLOCKS = 2;

/** Offset of the start of line `line` (0-based) in `text`, counting line breaks as markdown-it does. */
function lineOffset(text: string, line: number): number {
  if (line <= 0) return 0;
  LINE_BREAK.lastIndex = 0;
  let seen = 0;
  while (LINE_BREAK.exec(text)) {
    if (++seen === line) return LINE_BREAK.lastIndex;
  }
  return text.length;
}

export class StreamingMarkdown {
  /**
   * The text rendered so far, built by appending: never read whole on the way (a string built by
   * `+=` is a rope in V8; reading it, even `startsWith`, copies it flat, which for a 1 MB answer
   * was a megabyte of garbage a frame and the browser's longest pauses, its garbage collections).
   */
  private source = '';
  /** The open tail: `source` from where the settled blocks end (everything before it is final). */
  private open = '';
  private plain = false;
  /** The message defines link references: rendered whole from then on. */
  private whole = false;

  /** The text rendered so far (read whole: call it rarely). */
  get text(): string {
    return this.source;
  }

  /** How long the text rendered so far is (cheap). */
  get length(): number {
    return this.source.length;
  }

  /** What to change for `text`; undefined when it is what was rendered. Text that does not extend the last one starts over. */
  update(text: string): MarkdownUpdate | undefined {
    if (text === this.source) return undefined;
    if (text.startsWith(this.source)) return this.append(text.slice(this.source.length));
    this.source = '';
    this.open = '';
    this.plain = false;
    this.whole = false;
    const update = this.append(text);
    return update ? { ...update, reset: true } : { kind: 'markdown', reset: true, finished: '', tail: '' };
  }

  /** What to change when `added` is appended to the text rendered so far (undefined when nothing is). */
  append(added: string): MarkdownUpdate | undefined {
    if (!added) return undefined;
    this.source += added;
    if (this.source.length > MAX_MARKDOWN_CHARS) {
      const wasPlain = this.plain;
      this.plain = true;
      this.open = '';
      return wasPlain ? { kind: 'plain', reset: false, text: added } : { kind: 'plain', reset: true, text: this.source };
    }
    if (this.whole) return { kind: 'markdown', reset: true, finished: '', tail: md.render(this.source) };

    this.open += added;
    const env: { references?: Record<string, unknown> } = {};
    const tokens = md.parse(this.open, env);
    if (env.references && Object.keys(env.references).length > 0) {
      this.whole = true;
      return { kind: 'markdown', reset: true, finished: '', tail: md.render(this.source) };
    }
    // The last block may still change what it is ("2" becoming "2." continues the list before it),
    // so the two last blocks stay open; a block followed by a complete one is settled.
    const starts = blockStarts(tokens);
    const last = starts.at(-OPEN_BLOCKS);
    if (starts.length <= OPEN_BLOCKS || last === undefined) return { kind: 'markdown', reset: false, finished: '', tail: md.renderer.render(tokens, md.options, env) };
    const line = tokens[last]?.map?.[0] ?? 0;
    this.open = this.open.slice(lineOffset(this.open, line));
    return {
      kind: 'markdown',
      reset: false,
      finished: md.renderer.render(tokens.slice(0, last), md.options, env),
      tail: md.renderer.render(tokens.slice(last), md.options, env),
    };
  }
}

/** Indices of the tokens that open a top-level block, in order. */
function blockStarts(tokens: readonly Token[]): number[] {
  const starts: number[] = [];
  tokens.forEach((token, index) => {
    if (token.level === 0 && token.nesting >= 0 && token.block && token.map) starts.push(index);
  });
  return starts;
}
