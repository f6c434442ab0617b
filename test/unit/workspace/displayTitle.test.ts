import * as assert from 'node:assert/strict';
import { cardPaths, displayPath, displayTitle, type TitleContext } from '../../../src/extension/workspace/model/displayTitle';
import { ToolCallStore } from '../../../src/extension/session/model/toolCalls';

const single: TitleContext = { folders: [{ name: 'proj', path: '/home/u/proj' }], home: '/home/u' };
const multi: TitleContext = {
  folders: [
    { name: 'web', path: '/home/u/work/web' },
    { name: 'api', path: '/home/u/work/api' },
  ],
  home: '/home/u',
};
const nested: TitleContext = {
  folders: [
    { name: 'mono', path: '/repo' },
    { name: 'pkg-a', path: '/repo/packages/a' },
  ],
};
const windows: TitleContext = { folders: [{ name: 'proj', path: 'C:\\Users\\u\\proj' }], home: 'C:\\Users\\u', sep: '\\' };

describe('displayPath', () => {
  it('is relative to the single workspace folder', () => {
    assert.equal(displayPath('/home/u/proj/src/a.ts', single), 'src/a.ts');
  });

  it('is prefixed with the folder name in a multi-root workspace', () => {
    assert.equal(displayPath('/home/u/work/api/src/server.ts', multi), 'api/src/server.ts');
    assert.equal(displayPath('/home/u/work/web/index.html', multi), 'web/index.html');
  });

  it('uses the deepest folder when folders nest', () => {
    assert.equal(displayPath('/repo/packages/a/src/x.ts', nested), 'pkg-a/src/x.ts');
    assert.equal(displayPath('/repo/packages/b/src/x.ts', nested), 'mono/packages/b/src/x.ts');
  });

  it('names the folder itself by its name', () => {
    assert.equal(displayPath('/home/u/proj', single), 'proj');
    assert.equal(displayPath('/home/u/proj/', single), 'proj');
    assert.equal(displayPath('/home/u/work/api', multi), 'api');
  });

  it('shortens the home folder to ~ outside the workspace', () => {
    assert.equal(displayPath('/home/u/.bashrc', single), '~/.bashrc');
    assert.equal(displayPath('/home/u', single), '~');
    assert.equal(displayPath('/home/u/work/other/x.ts', multi), '~/work/other/x.ts');
  });

  it('stays absolute outside workspace and home', () => {
    assert.equal(displayPath('/etc/hosts', single), '/etc/hosts');
    assert.equal(displayPath('/home/uv/x', single), '/home/uv/x', 'a sibling with a longer name is not inside home');
    assert.equal(displayPath('/home/u/projector/a.ts', single), '~/projector/a.ts', 'nor inside a folder');
  });

  it('normalizes . and .. and doubled or trailing slashes', () => {
    assert.equal(displayPath('/home/u/proj/src/../lib/./b.ts', single), 'lib/b.ts');
    assert.equal(displayPath('/home/u/proj//src///a.ts', single), 'src/a.ts');
    assert.equal(displayPath('/home/u/proj/../other/a.ts', single), '~/other/a.ts');
    assert.equal(displayPath('/etc/../../var/log/', single), '/var/log');
    assert.equal(displayPath('/home/u/proj/src/', single), 'src');
  });

  it('accepts folders given with trailing slashes or un-normalized', () => {
    const ctx: TitleContext = { folders: [{ name: 'proj', path: '/home/u/./proj/' }] };
    assert.equal(displayPath('/home/u/proj/a.ts', ctx), 'a.ts');
  });

  it('leaves a relative path as the agent wrote it', () => {
    assert.equal(displayPath('src/a.ts', single), 'src/a.ts');
  });

  it('handles Windows paths with the Windows separator', () => {
    assert.equal(displayPath('C:\\Users\\u\\proj\\src\\a.ts', windows), 'src\\a.ts');
    assert.equal(displayPath('c:/users/u/proj/src/a.ts', windows), 'src\\a.ts', 'either slash, any case');
    assert.equal(displayPath('C:\\Users\\u\\Documents\\n.md', windows), '~\\Documents\\n.md');
    assert.equal(displayPath('D:\\data\\..\\x.csv', windows), 'D:\\x.csv');
    assert.equal(displayPath('\\\\server\\share\\dir\\f.txt', windows), '\\\\server\\share\\dir\\f.txt');
  });
});

describe('displayTitle', () => {
  it('replaces the absolute path in a title with its display path', () => {
    assert.equal(displayTitle('Edit /home/u/proj/src/a.ts', ['/home/u/proj/src/a.ts'], single), 'Edit src/a.ts');
    assert.equal(displayTitle('/home/u/proj/README.md', ['/home/u/proj/README.md'], single), 'README.md');
  });

  it('prefixes the folder in a multi-root workspace', () => {
    assert.equal(displayTitle('Read /home/u/work/api/main.go', ['/home/u/work/api/main.go'], multi), 'Read api/main.go');
  });

  it("prefixes a title relative to the agent's cwd with the folder in a multi-root workspace", () => {
    const withCwd: TitleContext = { ...multi, cwd: '/home/u/work/web' };
    // Claude's adapter and the bundled agent title calls relative to their cwd.
    assert.equal(displayTitle('Edit src/main.js', ['/home/u/work/web/src/main.js'], withCwd), 'Edit web/src/main.js');
    assert.equal(displayTitle('Edit src/main.js and /home/u/work/api/x.ts', ['/home/u/work/web/src/main.js', '/home/u/work/api/x.ts'], withCwd), 'Edit web/src/main.js and api/x.ts');
    // Only the whole relative path: not inside a longer one, not one relative elsewhere.
    assert.equal(displayTitle('Edit lib/src/main.js', ['/home/u/work/web/src/main.js'], withCwd), 'Edit lib/src/main.js');
    assert.equal(displayTitle('Edit src/main.jsx', ['/home/u/work/web/src/main.js'], withCwd), 'Edit src/main.jsx');
    // A file outside the cwd has no cwd-relative form: its title stays as written.
    assert.equal(displayTitle('Read src/x.ts', ['/home/u/work/api/src/x.ts'], withCwd), 'Read src/x.ts');
    // One folder: relative to the cwd is already the display.
    assert.equal(displayTitle('Edit src/a.ts', ['/home/u/proj/src/a.ts'], { ...single, cwd: '/home/u/proj' }), 'Edit src/a.ts');
    const win: TitleContext = { folders: [...windows.folders, { name: 'lib', path: 'C:\\lib' }], sep: '\\', cwd: 'C:\\Users\\u\\proj' };
    assert.equal(displayTitle('Edit src/a.ts', ['C:\\Users\\u\\proj\\src\\a.ts'], win), 'Edit proj\\src\\a.ts');
  });

  it('leaves titles that are already relative or name no known path', () => {
    assert.equal(displayTitle('Edit src/a.ts', ['/home/u/proj/src/a.ts'], single), 'Edit src/a.ts');
    assert.equal(displayTitle('Read /home/u/proj/other.ts', ['/home/u/proj/src/a.ts'], single), 'Read /home/u/proj/other.ts');
    assert.equal(displayTitle('Terminal', [], single), 'Terminal');
  });

  it('does not replace a path inside a longer path', () => {
    const paths = ['/home/u/proj/a.ts'];
    assert.equal(displayTitle('Edit /home/u/proj/a.tsx', paths, single), 'Edit /home/u/proj/a.tsx');
    assert.equal(displayTitle('Copy /x/home/u/proj/a.ts', paths, single), 'Copy /x/home/u/proj/a.ts');
    assert.equal(displayTitle('List /home/u/proj/a.ts/inner', paths, single), 'List /home/u/proj/a.ts/inner');
  });

  it('replaces both paths when a card knows both, longest first', () => {
    const paths = ['/home/u/proj/a.ts', '/home/u/proj/a.tsx'];
    assert.equal(displayTitle('Move /home/u/proj/a.ts to /home/u/proj/a.tsx', paths, single), 'Move a.ts to a.tsx');
  });

  it('accepts punctuation around the path', () => {
    const paths = ['/home/u/proj/a.ts'];
    assert.equal(displayTitle('Edited /home/u/proj/a.ts.', paths, single), 'Edited a.ts.');
    assert.equal(displayTitle('Open "/home/u/proj/a.ts" at /home/u/proj/a.ts:12', paths, single), 'Open "a.ts" at a.ts:12');
    assert.equal(displayTitle('Edit /home/u/proj/a.ts, then stop', paths, single), 'Edit a.ts, then stop');
  });

  it('matches a path the agent wrote un-normalized, and a trailing slash in the title', () => {
    assert.equal(displayTitle('List /home/u/proj/src/', ['/home/u/proj/src'], single), 'List src');
    assert.equal(displayTitle('List /home/u/proj/src', ['/home/u/proj/./src/'], single), 'List src');
  });

  it('shortens home in a title outside the workspace', () => {
    assert.equal(displayTitle('Read /home/u/.gitconfig', ['/home/u/.gitconfig'], single), 'Read ~/.gitconfig');
  });

  it('works with Windows paths', () => {
    assert.equal(displayTitle('Edit C:\\Users\\u\\proj\\src\\a.ts', ['C:\\Users\\u\\proj\\src\\a.ts'], windows), 'Edit src\\a.ts');
  });

  it('shows a path named again the same way, each context its own, also past the paths a context keeps', () => {
    // A path's forms are worked out once per context: the same path in another workspace, or as
    // one of thousands named since, must still show as that context shows it.
    const path = '/home/u/work/api/src/server.ts';
    assert.equal(displayTitle(`Read ${path}`, [path], multi), 'Read api/src/server.ts');
    assert.equal(displayTitle(`Read ${path}`, [path], single), 'Read ~/work/api/src/server.ts');
    assert.equal(displayTitle(`Read ${path}`, [path], { ...multi, cwd: '/home/u/work/api' }), 'Read api/src/server.ts');
    assert.equal(displayTitle('Edit src/server.ts', [path], { ...multi, cwd: '/home/u/work/api' }), 'Edit api/src/server.ts');
    for (let i = 0; i < 10_000; i++) {
      const file = `/home/u/work/web/f${i}.ts`;
      assert.equal(displayTitle(`Edit ${file} and ${path}`, [file, path], multi), `Edit web/f${i}.ts and api/src/server.ts`);
    }
    assert.equal(displayTitle(`Read ${path}`, [path], multi), 'Read api/src/server.ts');
    assert.equal(displayTitle(`Read ${path}`, [path, path], single), 'Read ~/work/api/src/server.ts');
  });
});

describe('cardPaths', () => {
  it('lists diff paths first, then locations, each once', () => {
    const store = new ToolCallStore();
    const { call } = store.applyToolCall({
      toolCallId: 'c',
      title: 'Edit',
      content: [
        { type: 'content', content: { type: 'text', text: 'x' } },
        { type: 'diff', path: '/p/b.ts', newText: '' },
        { type: 'diff', path: '/p/b.ts', newText: 'again' },
      ],
      locations: [{ path: '/p/a.ts', line: 3 }, { path: '/p/b.ts' }],
    });
    assert.deepEqual(cardPaths(call), ['/p/b.ts', '/p/a.ts']);
  });
});
