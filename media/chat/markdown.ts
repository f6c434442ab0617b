/**
 * Markdown of the agent's messages, rendered safely: raw HTML is off (tags show as text), links
 * keep only http(s) and mailto targets (no `javascript:`, `data:`, `file:`, `command:`), images
 * are not loaded (the page's CSP would refuse remote ones anyway), and a text too big to parse in
 * a frame is shown as plain text. Pure apart from markdown-it, so it is unit-tested in Node.
 */
import MarkdownIt from 'markdown-it';

/** Above this a message is shown as plain text: parsing it would stall the view. */
export const MAX_MARKDOWN_CHARS = 200_000;

const SAFE_LINK = /^(https?:|mailto:|#)/i;

/** The one configured parser (media/chat/markdownStream.ts renders growing messages with it). */
export const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });
md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
// An image becomes its alt text: nothing is fetched.
md.renderer.rules.image = (tokens, index) => md.utils.escapeHtml(tokens[index]?.content ?? '');
const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet('rel', 'noopener noreferrer');
  return defaultLinkOpen(tokens, index, options, env, self);
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** HTML for a message's markdown. */
export function renderMarkdown(text: string): string {
  if (text.length > MAX_MARKDOWN_CHARS) return `<pre class="plain">${escapeHtml(text)}</pre>`;
  return md.render(text);
}
