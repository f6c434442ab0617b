/**
 * The editor's ids of agent sessions. Sessions are known by their id everywhere in the editor
 * (questions, terminals, the action log), but two agents may name theirs the same (test agents
 * count `sess_1`, `sess_2`…): the second one gets a suffixed id here (`sess_1~2`), and what its
 * agent sends is translated to it.
 */
export class SessionAliases<Owner extends object> {
  /** Per owner (an agent's connection): its session id → the editor's, where they differ. */
  private readonly byOwner = new WeakMap<Owner, Map<string, string>>();

  /** The editor's id of the session this owner calls `agentSessionId`. */
  clientId(owner: Owner, agentSessionId: string): string {
    return this.byOwner.get(owner)?.get(agentSessionId) ?? agentSessionId;
  }

  /**
   * Picks the editor's id of a new session of this owner: `preferred` (the agent's own id, or the
   * id its dead predecessor had) unless another session has it, else the agent's id with the
   * first free suffix `~2`, `~3`….
   */
  assign(owner: Owner, agentSessionId: string, preferred: string, taken: (id: string) => boolean): string {
    let id = preferred;
    if (taken(id)) {
      let n = 2;
      while (taken(`${agentSessionId}~${n}`)) n++;
      id = `${agentSessionId}~${n}`;
    }
    const aliases = this.byOwner.get(owner) ?? new Map<string, string>();
    if (id === agentSessionId) aliases.delete(agentSessionId);
    else aliases.set(agentSessionId, id);
    this.byOwner.set(owner, aliases);
    return id;
  }
}
