import type * as vscode from 'vscode';
import type { DistributionKind } from './model/registry';
import type { AddedAgent } from './installer';

const STATE_KEY = 'acpNative.registry.addedAgents';
const KINDS: readonly DistributionKind[] = ['binary', 'npx', 'uvx'];

/**
 * The agents added from the registry, kept in the extension's global state (not in settings: the
 * user never edits them, and a binary's path changes with each version). Keyed by registry id.
 */
export class AddedAgents {
  constructor(private readonly state: vscode.Memento) {}

  all(): AddedAgent[] {
    const raw = this.state.get<unknown[]>(STATE_KEY, []);
    return Array.isArray(raw) ? raw.flatMap((entry) => (isAddedAgent(entry) ? [entry] : [])) : [];
  }

  byName(name: string): AddedAgent | undefined {
    return this.all().find((a) => a.name === name);
  }

  byId(id: string): AddedAgent | undefined {
    return this.all().find((a) => a.id === id);
  }

  async put(agent: AddedAgent): Promise<void> {
    await this.state.update(STATE_KEY, [...this.all().filter((a) => a.id !== agent.id), agent]);
  }

  async remove(id: string): Promise<void> {
    await this.state.update(STATE_KEY, this.all().filter((a) => a.id !== id));
  }
}

function isAddedAgent(value: unknown): value is AddedAgent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' &&
    typeof v.name === 'string' &&
    typeof v.version === 'string' &&
    typeof v.command === 'string' &&
    typeof v.description === 'string' &&
    KINDS.includes(v.distribution as DistributionKind) &&
    Array.isArray(v.args) &&
    v.args.every((a) => typeof a === 'string') &&
    typeof v.env === 'object' &&
    v.env !== null
  );
}
