import * as assert from 'node:assert/strict';
import { PLAN_SCHEME, decodePlanDocUri, encodePlanDocUri } from '../../../src/extension/plans/model/planDocs';

describe('plan document addresses', () => {
  it('round-trips session and plan, with a markdown file name VS Code reads as markdown', () => {
    const parts = encodePlanDocUri({ sessionId: 'sess 1', planId: 'plan-mode' });
    assert.equal(parts.scheme, PLAN_SCHEME);
    assert.equal(parts.path, '/plan-mode.md');
    assert.deepEqual(decodePlanDocUri(parts), { sessionId: 'sess 1', planId: 'plan-mode' });
  });

  it('names odd ids safely and refuses what is not such an address', () => {
    const parts = encodePlanDocUri({ sessionId: 's', planId: '../../etc/passwd?x#y' });
    assert.equal(parts.path, '/.._.._etc_passwd_x_y.md');
    assert.equal(decodePlanDocUri(parts)?.planId, '../../etc/passwd?x#y');
    assert.equal(decodePlanDocUri({ scheme: 'file', path: '/a.md', query: 'session=s&plan=p' }), undefined);
    assert.equal(decodePlanDocUri({ scheme: PLAN_SCHEME, path: '/a.md', query: 'session=s' }), undefined);
  });
});
