/**
 * Wraps text in a Markdown code fence that the text itself cannot close: the fence is one
 * backtick longer than the longest backtick run inside (at least three).
 */
export function fenced(text: string, info = ''): string {
  let longest = 0;
  if (text.includes('`')) for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const body = text.endsWith('\n') || text === '' ? text : `${text}\n`;
  return `${fence}${info}\n${body}${fence}`;
}
