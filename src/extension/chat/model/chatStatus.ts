/**
 * The Chat view's status of a session (pure): mode, config options, plan, questions, forms,
 * the context meter, the switcher's sessions: small, and replaced whole whenever it changes.
 */
import type { SessionConfigOption } from '@agentclientprotocol/sdk';
import type { ChatActivity, ChatChoice, ChatElicitation, ChatPermission, ChatQueue, ChatSelect, ChatSessionEntry, ChatStatus, ChatToggle } from '../../../protocol/chat';
import type { PermissionQuestion } from '../../permissions/model/permissionRequests';
import type { SessionState } from '../../session/model/sessionState';
import { contextMeter } from './contextMeter';

export interface ChatStatusInput {
  readonly state: SessionState | undefined;
  readonly agentName: string | undefined;
  readonly busy: boolean;
  /** Open questions of this session. */
  readonly questions: readonly PermissionQuestion[];
  readonly questionTitle: (question: PermissionQuestion) => string;
  /** The label of a question's show-more button (the editor's Compare), if it has one. */
  readonly questionInspect?: (question: PermissionQuestion) => string | undefined;
  /** The hunks a question's edit offers to choose from (partial approval), if any. */
  readonly questionHunks?: (question: PermissionQuestion) => number | undefined;
  readonly attachments: readonly ChatChoice[];
  /** Open forms of this session. */
  readonly elicitations?: readonly ChatElicitation[];
  readonly acceptsImages?: boolean;
  /** Every open session, for the header's switcher. */
  readonly sessions?: readonly ChatSessionEntry[];
  /** The session's prompt queue. */
  readonly queue?: ChatQueue;
}

export function activityOf(input: { hasSession: boolean; busy: boolean; waiting: boolean }): ChatActivity {
  if (!input.hasSession) return 'none';
  if (input.waiting) return 'waiting';
  return input.busy ? 'working' : 'idle';
}

export function chatStatus(input: ChatStatusInput): ChatStatus {
  const { state } = input;
  const configOptions = (state?.configOptions ?? []).flatMap(selectOf);
  const permissions: ChatPermission[] = input.questions.map((q) => {
    const hunks = input.questionHunks?.(q);
    return {
      questionId: q.id,
      toolCallId: q.toolCall.toolCallId,
      title: input.questionTitle(q),
      options: q.options.map((o) => ({ id: o.optionId, name: o.name, kind: o.kind })),
      inspect: input.questionInspect?.(q) ?? null,
      ...(hunks !== undefined ? { hunks } : {}),
    };
  });
  return {
    agentName: input.agentName ?? null,
    sessionId: state?.sessionId ?? null,
    title: state?.title ?? null,
    activity: activityOf({ hasSession: !!state, busy: input.busy, waiting: permissions.length > 0 || (input.elicitations?.length ?? 0) > 0 }),
    // The spec: clients use configOptions when present. A mode option supersedes the legacy modes
    // (Claude's and Codex's adapters send both, which showed two mode pickers).
    modes: configOptions.some((o) => o.category === 'mode') ? [] : (state?.availableModes ?? []).map((m) => ({ id: m.id, name: m.name })),
    currentModeId: state?.currentModeId ?? null,
    configOptions,
    toggles: (state?.configOptions ?? []).flatMap(toggleOf),
    commands: (state?.availableCommands ?? []).map((c) => ({ name: c.name, description: c.description, hint: c.input?.hint ?? null })),
    plan: (state?.plan ?? []).map((e) => ({ content: e.content, status: e.status })),
    permissions,
    context: state ? contextMeter(state.usage, state.availableCommands) : null,
    attachments: input.attachments,
    elicitations: input.elicitations ?? [],
    acceptsImages: input.acceptsImages ?? false,
    sessions: input.sessions ?? [],
    queue: input.queue ?? { items: [], waiting: null, steering: false },
  };
}

function selectOf(option: SessionConfigOption): ChatSelect[] {
  if (option.type !== 'select') return [];
  const choices = option.options.flatMap((o) => ('group' in o ? o.options : [o])).map((o) => ({ id: o.value, name: o.name }));
  return [
    {
      id: option.id,
      name: option.name,
      description: option.description ?? null,
      category: option.category ?? null,
      currentValue: option.currentValue,
      options: choices,
    },
  ];
}

function toggleOf(option: SessionConfigOption): ChatToggle[] {
  return option.type === 'boolean' ? [{ id: option.id, name: option.name, description: option.description ?? null, value: option.currentValue }] : [];
}
