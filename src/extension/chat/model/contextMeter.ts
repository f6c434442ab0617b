/**
 * The context window's meter under the prompt (pure): how full it is (`usage_update {used, size,
 * cost}`), amber from 80 %, red from 95 %, and what the meter offers (the agent's `/compact`).
 */
import type { AvailableCommand } from '@agentclientprotocol/sdk';
import type { ChatContext } from '../../../protocol/chat';
import type { SessionUsage } from '../../session/model/sessionState';
import { compactCount } from './chatEvents';

export const WARNING_FRACTION = 0.8;
export const CRITICAL_FRACTION = 0.95;

/** The command the meter's Compact sends, when the agent offers it. */
export const COMPACT_COMMAND = 'compact';

export function contextMeter(usage: SessionUsage | undefined, commands: readonly AvailableCommand[]): ChatContext {
  const canCompact = commands.some((c) => c.name === COMPACT_COMMAND);
  if (!usage) return { used: null, size: null, fraction: null, level: 'normal', label: '', detail: 'The agent has not said how full its context window is.', canCompact };
  const { used, size } = usage;
  const cost = usage.cost ? ` · cost ${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : '';
  if (!(size > 0)) {
    return { used, size, fraction: null, level: 'normal', label: `${compactCount(used)} tokens`, detail: `Context: ${exact(used)} tokens used (the agent sent no window size)${cost}`, canCompact };
  }
  const over = used > size;
  const fraction = Math.min(1, used / size);
  const percent = Math.floor((used / size) * 100);
  const level = over || fraction >= CRITICAL_FRACTION ? 'critical' : fraction >= WARNING_FRACTION ? 'warning' : 'normal';
  const label = `${compactCount(used)} / ${compactCount(size)} (${over ? 'over the window' : `${percent} %`})`;
  const detail = `Context window: ${exact(used)} of ${exact(size)} tokens used (${percent} %)${over ? ', more than the window holds' : ''}${cost}`;
  return { used, size, fraction, level, label, detail, canCompact };
}

function exact(n: number): string {
  return n.toLocaleString('en-US');
}
