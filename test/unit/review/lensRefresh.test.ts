import * as assert from 'node:assert/strict';
import { lensesMayChange } from '../../../src/extension/review/model/lensRefresh';

describe('hunk lenses: when the window must ask again', () => {
  const reviewable = (paths: string[]) => (path: string) => paths.includes(path);

  it('stays quiet while no editor on screen shows a file with a change to review or lenses shown', () => {
    assert.equal(lensesMayChange([], new Set(), reviewable(['/w/a.ts'])), false, 'no editor on screen');
    assert.equal(lensesMayChange(['/w/b.ts'], new Set(['/w/c.ts']), reviewable(['/w/a.ts'])), false, 'the changed file is not on screen');
  });

  it('asks again for an editor on screen whose file has a change to review', () => {
    assert.equal(lensesMayChange(['/w/b.ts', '/w/a.ts'], new Set(), reviewable(['/w/a.ts'])), true);
  });

  it('asks again for an editor on screen that shows lenses, so they go once nothing is left to review', () => {
    assert.equal(lensesMayChange(['/w/a.ts'], new Set(['/w/a.ts']), reviewable([])), true);
  });
});
