/**
 * Permission decisions that need no person (pure): automatic approval by setting, and the option
 * to pick for an outcome. Options are chosen by `kind` when no person picked one: agents change
 * their ids from one question to the next.
 */
import type * as acp from '@agentclientprotocol/sdk';

export type AutoApprove = 'never' | 'reads' | 'edits' | 'everything';

const READ_KINDS: ReadonlySet<string> = new Set(['read', 'search', 'think', 'fetch']);
const EDIT_KINDS: ReadonlySet<string> = new Set(['edit', 'delete', 'move']);

/** Whether the setting approves a tool call of this kind without asking. */
export function isAutoApproved(setting: AutoApprove, kind: acp.ToolKind | null | undefined): boolean {
  switch (setting) {
    case 'never':
      return false;
    case 'reads':
      return kind != null && READ_KINDS.has(kind);
    case 'edits':
      return kind != null && (READ_KINDS.has(kind) || EDIT_KINDS.has(kind));
    case 'everything':
      return true;
  }
}

/** The first option of the wanted kinds, in order of preference. */
export function optionOfKind(
  options: readonly acp.PermissionOption[],
  ...kinds: acp.PermissionOptionKind[]
): acp.PermissionOption | undefined {
  for (const kind of kinds) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found;
  }
  return undefined;
}

/**
 * The option of this kind a person picked: the one of `optionId` when given (options may share a
 * kind, and each says something else), else the first of the kind.
 */
export function optionOf(options: readonly acp.PermissionOption[], kind: acp.PermissionOptionKind, optionId?: string): acp.PermissionOption | undefined {
  if (optionId === undefined) return optionOfKind(options, kind);
  return options.find((o) => o.optionId === optionId && o.kind === kind);
}
