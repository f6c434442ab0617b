import * as assert from 'node:assert/strict';
import { historyDetails, historyTitle, matchSnippet, normalizeQuery, SNIPPET_CHARS, UNTITLED_SESSION } from '../../../src/extension/chat/model/historySearch';

describe('session history search', () => {
  it('finds the query in the conversation whatever its case and line breaks, and shows the words around it', () => {
    assert.equal(matchSnippet('walrus', 'Fix the Walrus\nOn it.'), 'Fix the Walrus On it.');
    assert.equal(matchSnippet('  the   WALRUS ', 'Fix\nthe walrus'), 'Fix the walrus');
    assert.equal(matchSnippet('the walrus', 'Fix the\nwalrus'), 'Fix the walrus', 'a line break between the words matches a space');
  });

  it('cuts a long conversation around the match, marking the cuts, and keeps a long match whole', () => {
    const text = `${'a'.repeat(200)} narwhal ${'b'.repeat(200)}`;
    const snippet = matchSnippet('narwhal', text) ?? '';
    assert.ok(snippet.startsWith('…') && snippet.endsWith('…'), snippet);
    assert.ok(snippet.includes('narwhal'));
    assert.ok(snippet.length <= SNIPPET_CHARS + 2, `${snippet.length}`);
    const long = 'x'.repeat(150);
    assert.ok(matchSnippet(long, `start ${long} end`)?.includes(long));
  });

  it('matches nothing for an empty query, a missing record, or words not in it', () => {
    assert.equal(matchSnippet('', 'anything'), undefined);
    assert.equal(matchSnippet('   ', 'anything'), undefined);
    assert.equal(matchSnippet('walrus', undefined), undefined);
    assert.equal(matchSnippet('walrus', ''), undefined);
    assert.equal(matchSnippet('seal', 'the walrus'), undefined);
    assert.equal(normalizeQuery(' A  b\tC '), 'a b c');
  });

  it('gives each entry its detail line in order: the snippet where the conversation matches, none elsewhere', () => {
    const entries = [
      { sessionId: '1', title: 'Greeting', text: 'make the greeting warmer' },
      { sessionId: '2', title: 'Warm up', text: undefined },
      { sessionId: '3', title: 'Other', text: 'nothing here' },
    ];
    assert.deepEqual(historyDetails('warm', entries), ['make the greeting warmer', undefined, undefined]);
    assert.deepEqual(historyDetails('', entries), [undefined, undefined, undefined]);
  });

  it("titles a session by the agent's title, else its first prompt recorded here, else Untitled (never its id)", () => {
    assert.equal(historyTitle('Fix the parser', 'fix it'), 'Fix the parser');
    assert.equal(historyTitle(null, 'fix it'), 'fix it');
    assert.equal(historyTitle('  ', undefined), UNTITLED_SESSION);
    assert.equal(historyTitle(undefined, undefined), 'Untitled session');
  });
});
