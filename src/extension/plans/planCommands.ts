import type { CommandTable } from '../base/commandTable';
import type { PlanPreviews } from './planPreviews';

/** The commands on the agent's plans: open one whole (the chat card's Open). */
export function planCommands(deps: { plans: PlanPreviews }): CommandTable {
  return {
    'acpNative.openPlan': (sessionId?: unknown, planId?: unknown) =>
      deps.plans.open(typeof sessionId === 'string' ? sessionId : undefined, typeof planId === 'string' ? planId : undefined),
  };
}
