import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { isAutoApproved, optionOfKind } from '../../../src/extension/permissions/model/autoApprove';

describe('permission decisions', () => {
  it('approves by setting and tool kind', () => {
    assert.equal(isAutoApproved('never', 'read'), false);
    assert.equal(isAutoApproved('reads', 'read'), true);
    assert.equal(isAutoApproved('reads', 'edit'), false);
    assert.equal(isAutoApproved('edits', 'edit'), true);
    assert.equal(isAutoApproved('edits', 'execute'), false);
    assert.equal(isAutoApproved('edits', undefined), false);
    assert.equal(isAutoApproved('everything', 'execute'), true);
  });

  it('picks options by kind, never by id', () => {
    const options: acp.PermissionOption[] = [
      { optionId: 'x-1', name: 'Yes', kind: 'allow_once' },
      { optionId: 'x-2', name: 'Always', kind: 'allow_always' },
      { optionId: 'x-3', name: 'No', kind: 'reject_once' },
    ];
    assert.equal(optionOfKind(options, 'allow_always', 'allow_once')?.optionId, 'x-2');
    assert.equal(optionOfKind(options, 'reject_always', 'reject_once')?.optionId, 'x-3');
    assert.equal(optionOfKind(options, 'reject_always'), undefined);
  });
});
