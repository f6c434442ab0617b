import type { AgentConnection } from '../../wire/agentConnection';
import { retryAfterSignIn, type SignedIn } from './model/authMethods';

/**
 * Runs a request that the agent may refuse until the user signs in (`-32000`): then signs in to
 * that agent and retries once. What the session verbs wrap `session/new`, `session/load` and
 * `session/prompt` in.
 */
export class SignInRetry {
  constructor(
    private readonly deps: {
      agents: { running(agentKey: string): AgentConnection | undefined };
      config: { readonly defaultAgent: string };
      /** Signs in after a refusal: the method used, or undefined when the user gave up. */
      signIn: { onAuthRequired(connection: AgentConnection, error: unknown): Promise<SignedIn | undefined> };
    },
  ) {}

  /** `agentKey` undefined: the default agent's request. */
  run<T>(agentKey: string | undefined, attempt: () => Promise<T>): Promise<T> {
    return retryAfterSignIn(attempt, async (error) => {
      const connection = this.deps.agents.running(agentKey ?? this.deps.config.defaultAgent);
      return connection ? this.deps.signIn.onAuthRequired(connection, error) : undefined;
    });
  }
}
