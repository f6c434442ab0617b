import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { isAutoApproved, optionOfKind } from '../core/permissions';
import type { Config } from '../config';
import type { Logger } from '../log';
import { titleContext } from '../render/titles';
import { displayTitle } from '../core/displayTitle';

/**
 * `session/request_permission`: approved automatically when the setting says so, otherwise asked
 * in a notification whose buttons are the agent's options. A cancelled turn answers `cancelled`.
 */
export class PermissionService {
  constructor(private readonly deps: { config: Config; log: Logger }) {}

  async request(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const auto = this.deps.config.autoApprove;
    if (isAutoApproved(auto, params.toolCall.kind)) {
      const allow = optionOfKind(params.options, 'allow_once', 'allow_always');
      if (allow) {
        this.deps.log.info(`Permission auto-approved (${auto}): ${params.toolCall.title ?? params.toolCall.toolCallId}`);
        return selected(allow);
      }
    }
    const paths = [
      ...(params.toolCall.content ?? []).flatMap((c) => (c.type === 'diff' ? [c.path] : [])),
      ...(params.toolCall.locations ?? []).map((l) => l.path),
    ];
    const title = displayTitle(params.toolCall.title ?? 'use a tool', paths, titleContext());
    const buttons = params.options.map((o) => o.name);
    const cancelled = new Promise<undefined>((resolve) => {
      if (signal.aborted) resolve(undefined);
      signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
    const picked = await Promise.race([vscode.window.showWarningMessage(`The agent wants to: ${title}`, ...buttons), cancelled]);
    if (signal.aborted) return { outcome: { outcome: 'cancelled' } };
    const option = params.options.find((o) => o.name === picked) ?? optionOfKind(params.options, 'reject_once', 'reject_always');
    return option ? selected(option) : { outcome: { outcome: 'cancelled' } };
  }
}

function selected(option: acp.PermissionOption): acp.RequestPermissionResponse {
  return { outcome: { outcome: 'selected', optionId: option.optionId } };
}
