import * as assert from 'node:assert/strict';
import { callToAcp } from '../../../src/agent/bridge';
import { displayPath, displayTitle } from '../../../src/agent/titles';

const cwd = '/home/user/project';

describe('relative titles', () => {
  it('shows a path inside the cwd relative to it', () => {
    assert.equal(displayTitle(`Read ${cwd}/src/x.ts`, `${cwd}/src/x.ts`, cwd), 'Read src/x.ts');
  });

  it('keeps a path outside the cwd absolute, including a sibling sharing a prefix', () => {
    assert.equal(displayTitle('Read /etc/hosts', '/etc/hosts', cwd), 'Read /etc/hosts');
    assert.equal(displayTitle(`Read ${cwd}-old/x.ts`, `${cwd}-old/x.ts`, cwd), `Read ${cwd}-old/x.ts`);
  });

  it('replaces exactly the known path, once, and nothing else', () => {
    assert.equal(displayTitle(`Copy ${cwd}/a to ${cwd}/a.bak`, `${cwd}/a`, cwd), `Copy a to ${cwd}/a.bak`);
    assert.equal(displayTitle('Run tests', `${cwd}/a`, cwd), 'Run tests');
    assert.equal(displayTitle(`Read ${cwd}/$&.ts`, `${cwd}/$&.ts`, cwd), 'Read $&.ts');
  });

  it('answers for the cwd asked, however often a path was shown before (paths are remembered per cwd)', () => {
    const file = `${cwd}/src/x.ts`;
    for (let i = 0; i < 3; i++) {
      assert.equal(displayPath(file, cwd), 'src/x.ts');
      assert.equal(displayPath(file, `${cwd}/src`), 'x.ts');
      assert.equal(displayPath(file, '/elsewhere'), file);
    }
    // More paths than are remembered: the answers stay right.
    for (let i = 0; i < 3000; i++) assert.equal(displayPath(`${cwd}/f${i}.ts`, cwd), `f${i}.ts`);
    assert.equal(displayPath(file, cwd), 'src/x.ts');
  });

  it('shows the cwd itself as "."', () => {
    assert.equal(displayPath(cwd, cwd), '.');
  });

  it('is generic over card kinds: the path comes from locations[0] or diffs[0], not the tool', () => {
    const ctx = { cwd, terminalOutput: false };
    const generic = callToAcp('a', { card: 'generic', title: `Anything ${cwd}/f`, locations: [{ path: `${cwd}/f` }] }, ctx);
    const diff = callToAcp('b', { card: 'diff', title: `Whatever ${cwd}/g`, diffs: [{ path: `${cwd}/g`, oldText: null, newText: '' }] }, ctx);
    const terminal = callToAcp('c', { card: 'terminal', title: `cat ${cwd}/f` }, ctx);
    assert.equal(generic.title, 'Anything f');
    assert.equal(diff.title, 'Whatever g');
    // No known path on a terminal card: its title (a command line) is left exactly as is.
    assert.equal(terminal.title, `cat ${cwd}/f`);
    // Paths the editor opens stay absolute.
    assert.deepEqual(generic.locations, [{ path: `${cwd}/f` }]);
    assert.deepEqual(diff.content, [{ type: 'diff', path: `${cwd}/g`, oldText: null, newText: '' }]);
  });
});
