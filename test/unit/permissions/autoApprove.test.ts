import * as assert from 'node:assert/strict';
import type * as acp from '@agentclientprotocol/sdk';
import { isAutoApproved, optionOf, optionOfKind } from '../../../src/extension/permissions/model/autoApprove';

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

  it("answers with the option a person picked among several of a kind (Claude's plan approval)", () => {
    // As Claude's adapter 0.101 sends them for ExitPlanMode.
    const plan: acp.PermissionOption[] = [
      { optionId: 'exit-plan-default', name: 'Yes, manually approve edits', kind: 'allow_once' },
      { optionId: 'exit-plan-clear-auto', name: 'Yes, clear context (12% used) and use auto mode', kind: 'allow_always' },
      { optionId: 'exit-plan-auto', name: 'Yes, and use auto mode', kind: 'allow_always' },
      { optionId: 'exit-plan-bypass', name: 'Yes, and bypass permissions', kind: 'allow_always' },
      { optionId: 'reject', name: 'No, keep planning', kind: 'reject_once' },
    ];
    assert.equal(optionOf(plan, 'allow_always', 'exit-plan-bypass')?.optionId, 'exit-plan-bypass');
    assert.equal(optionOf(plan, 'allow_always', 'exit-plan-auto')?.optionId, 'exit-plan-auto');
    assert.equal(optionOf(plan, 'allow_always')?.optionId, 'exit-plan-clear-auto', 'no id: the first of the kind');
    assert.equal(optionOf(plan, 'allow_once', 'exit-plan-bypass'), undefined, 'an id of another kind is no answer');
    assert.equal(optionOf(plan, 'allow_always', 'exit-plan-gone'), undefined);
  });
});
