/**
 * Addresses of the read-only documents that show a plan whole (pure): session and plan in the
 * query, a path ending in `.md` so VS Code reads it as markdown and its preview takes it.
 */

export const PLAN_SCHEME = 'acp-native-plan';

export interface PlanDocKey {
  readonly sessionId: string;
  readonly planId: string;
}

export interface PlanUriParts {
  readonly scheme: string;
  readonly path: string;
  readonly query: string;
}

export function encodePlanDocUri(key: PlanDocKey): PlanUriParts {
  // The tab's title: the plan's id as a file name, nothing that reads as a folder or a scheme.
  const name = key.planId.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'plan';
  return { scheme: PLAN_SCHEME, path: `/${name}.md`, query: new URLSearchParams({ session: key.sessionId, plan: key.planId }).toString() };
}

/** Undefined for anything that is not such an address. */
export function decodePlanDocUri(parts: PlanUriParts): PlanDocKey | undefined {
  if (parts.scheme !== PLAN_SCHEME || typeof parts.query !== 'string') return undefined;
  const query = new URLSearchParams(parts.query);
  const sessionId = query.get('session');
  const planId = query.get('plan');
  return sessionId && planId ? { sessionId, planId } : undefined;
}
