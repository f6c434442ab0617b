/**
 * Session modes and permission decisions. Modes are ACP session modes, so any client can switch
 * them: `ask` asks before edits and commands, `accept-edits` applies edits without asking,
 * `bypass` never asks. An "always" answer holds for the rest of the session (in memory only: a
 * reloaded session asks again).
 */
import type { PermissionOption, PermissionOptionKind, SessionModeState } from '@agentclientprotocol/sdk';
import type { PermissionClass } from './tools/types';

export const MODE_IDS = ['ask', 'accept-edits', 'bypass'] as const;
export type ModeId = (typeof MODE_IDS)[number];

const MODES: Record<ModeId, { name: string; description: string }> = {
  ask: { name: 'Ask', description: 'Ask before every file change and command' },
  'accept-edits': { name: 'Accept edits', description: 'Change files without asking; ask before commands' },
  bypass: { name: 'Bypass', description: 'Never ask' },
};

export function isModeId(value: string): value is ModeId {
  return (MODE_IDS as readonly string[]).includes(value);
}

export function modeState(current: ModeId): SessionModeState {
  return { currentModeId: current, availableModes: MODE_IDS.map((id) => ({ id, ...MODES[id] })) };
}

/** Whether the mode lets a call of this class run without asking. */
export function modeAllows(mode: ModeId, needed: PermissionClass): boolean {
  switch (mode) {
    case 'ask':
      return false;
    case 'accept-edits':
      // Reads outside the session's folders still ask, as in Claude Code's acceptEdits mode.
      return needed === 'edit';
    case 'bypass':
      return true;
  }
}

export const WHAT: Record<PermissionClass, string> = {
  edit: 'file changes',
  execute: 'commands',
  mcp: 'MCP tool calls',
  read: 'reads outside the session folders',
};

export function permissionOptions(needed: PermissionClass): PermissionOption[] {
  return [
    { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' },
    { optionId: 'allow-always', name: `Allow all ${WHAT[needed]} in this session`, kind: 'allow_always' },
    { optionId: 'reject-once', name: 'Reject', kind: 'reject_once' },
    { optionId: 'reject-always', name: `Reject all ${WHAT[needed]} in this session`, kind: 'reject_always' },
  ];
}

/** The kind of the option a client selected; unknown ids count as a rejection, never a grant. */
export function selectedKind(needed: PermissionClass, optionId: string): PermissionOptionKind {
  return permissionOptions(needed).find((o) => o.optionId === optionId)?.kind ?? 'reject_once';
}
