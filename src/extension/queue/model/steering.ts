/**
 * Steering (pure): telling a running turn something (`_session/steering`, Claude's adapter 0.101
 * and Codex's 2.6; /work notes "Steering and queueing"). The agent advertises it at the top level
 * of the `initialize` result; we send it only when that says so exactly.
 */

export const STEERING_METHOD = '_session/steering';

/**
 * `_meta.steering.supported === true` at the top level of the initialize result. Anything else
 * (absent, `"yes"`, an array, a `steering` that is not an object) means no: a steer sent to an
 * agent that does not serve it would fail as an unknown method, or worse, be misread.
 */
export function steeringSupported(initializeResponse: unknown): boolean {
  const meta = (initializeResponse as { _meta?: unknown } | null | undefined)?._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return false;
  const steering = (meta as { steering?: unknown }).steering;
  if (typeof steering !== 'object' || steering === null || Array.isArray(steering)) return false;
  return (steering as { supported?: unknown }).supported === true;
}

/**
 * The request. The opt-in is always sent: without it an idle agent starts a detached turn whose
 * updates come with no `session/prompt` pending; with it, it answers `promptRequired` and we send
 * the text as a prompt.
 */
export function steeringParams<B>(sessionId: string, prompt: readonly B[]): { sessionId: string; prompt: readonly B[]; _meta: { steering: { idleBehavior: 'promptRequired' } } } {
  return { sessionId, prompt, _meta: { steering: { idleBehavior: 'promptRequired' } } };
}

/** What a steer came to. */
export type SteerOutcome =
  /** The running turn took it: it shows as the user's message at that point. */
  | { readonly kind: 'injected' }
  /** No turn ran any more: the text is to be sent as the next prompt. */
  | { readonly kind: 'promptRequired' }
  /** The agent did not take it (an error, no answer in time, an answer we cannot read): it goes to the queue. */
  | {
      readonly kind: 'failed';
      readonly reason: string;
      /** No answer in time: the answer still to come (an agent may take the steer late). */
      readonly late?: Promise<SteerOutcome>;
    };

/** Reads the agent's answer to `_session/steering`. */
export function steerOutcome(result: unknown): SteerOutcome {
  const outcome = (result as { outcome?: unknown } | null | undefined)?.outcome;
  switch (outcome) {
    case 'injected':
    // The agent ran it as a turn of its own (an agent that ignored the opt-in): it was taken.
    case 'startedNewTurn':
      return { kind: 'injected' };
    case 'promptRequired':
      return { kind: 'promptRequired' };
    case 'failed':
      return { kind: 'failed', reason: 'the agent could not take it now' };
    default:
      return { kind: 'failed', reason: `the agent answered ${truncate(JSON.stringify(result) ?? String(result))}` };
  }
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
