import * as assert from 'node:assert/strict';
import { foldersOf, fuzzyScore, rankMentions, type MentionCandidate } from '../../../src/extension/workspace/model/fuzzyMatch';

const files = (...paths: string[]): MentionCandidate[] => paths.map((path) => ({ path, isFolder: false }));

describe('fuzzy match of workspace paths (@ mentions)', () => {
  it('matches characters in order, case-insensitively, and rejects the rest', () => {
    assert.ok(fuzzyScore('gts', 'src/greet.ts') > 0);
    assert.ok(fuzzyScore('GREET', 'src/greet.ts') < 0, 'the query is lower-cased by the caller');
    assert.ok(fuzzyScore('greet', 'src/GREET.ts') > 0);
    assert.equal(fuzzyScore('xyz', 'src/greet.ts'), -1);
    assert.equal(fuzzyScore('tsg', 'src/greet.ts'), -1, 'order matters');
  });

  it('ranks file-name matches, word starts and runs above scattered folder matches', () => {
    const ranked = rankMentions('cv', files('src/core/values.ts', 'src/chatView.ts', 'docs/cover.md')).map((m) => m.path);
    assert.equal(ranked[0], 'src/chatView.ts', 'c…V at word starts in the name');
    const byName = rankMentions('index', files('index/a/b/c.ts', 'src/index.ts')).map((m) => m.path);
    assert.equal(byName[0], 'src/index.ts');
    const shorter = rankMentions('readme', files('docs/old/README.md', 'README.md')).map((m) => m.path);
    assert.equal(shorter[0], 'README.md');
  });

  it('puts open editors first, keeps only the best `limit`, and lists everything for an empty query', () => {
    const candidates = [...files('src/a.ts', 'src/ab.ts', 'src/abc.ts'), { path: 'lib/zz/a-long-name.ts', isFolder: false, open: true }];
    assert.equal(rankMentions('a', candidates)[0]?.path, 'lib/zz/a-long-name.ts');
    assert.equal(rankMentions('a', candidates, 2).length, 2);
    assert.equal(rankMentions('', candidates).length, 4);
  });

  it('derives every folder of a file list once', () => {
    assert.deepEqual(foldersOf(['a/b/c.ts', 'a/b/d.ts', 'a/e.ts', 'f.ts']).sort(), ['a', 'a/b']);
  });

  it('answers a query over 100,000 paths in well under a frame budget per keystroke (bench figure)', () => {
    const many: MentionCandidate[] = [];
    for (let i = 0; i < 100_000; i++) many.push({ path: `packages/pkg${i % 300}/src/module${i % 97}/file${i}.ts`, isFolder: false });
    many.push({ path: 'src/extension/render/chat/chatView.ts', isFolder: false });
    rankMentions('chv', many); // warm up
    const t0 = performance.now();
    const ranked = rankMentions('chatview', many, 50);
    const ms = performance.now() - t0;
    console.log(`      100,000 paths, query "chatview": ${ms.toFixed(1)} ms`);
    assert.equal(ranked[0]?.path, 'src/extension/render/chat/chatView.ts');
    assert.ok(ms < 1000, `took ${ms} ms`);
  });
});
