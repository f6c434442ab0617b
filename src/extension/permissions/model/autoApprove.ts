/**
 * Permission decisions that need no person (pure): automatic approval by setting, and the option
 * to pick for an outcome. Options are chosen by `kind`, never by id: agents change their ids.
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
