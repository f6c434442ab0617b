import type * as acp from '@agentclientprotocol/sdk';

/**
 * Every request the agent may send the editor, by the name of its handler here. The SDK client
 * (`AgentConnection`), the per-connection id translation and ownership check (`AgentSessions`)
 * and the client-request service are all built from this table: a new client method is one entry
 * here plus its handler in `requests/clientRequests.ts`.
 */
export const CLIENT_METHODS = {
  // The SDK's own names, written out: reading `acp.methods` here would load the SDK's chunk when
  // the extension's modules evaluate, not with the first agent (esbuild.mjs, lazy-acp-sdk).
  requestPermission: 'session/request_permission' satisfies typeof acp.methods.client.session.requestPermission,
  readTextFile: 'fs/read_text_file' satisfies typeof acp.methods.client.fs.readTextFile,
  writeTextFile: 'fs/write_text_file' satisfies typeof acp.methods.client.fs.writeTextFile,
  createTerminal: 'terminal/create' satisfies typeof acp.methods.client.terminal.create,
  terminalOutput: 'terminal/output' satisfies typeof acp.methods.client.terminal.output,
  waitForTerminalExit: 'terminal/wait_for_exit' satisfies typeof acp.methods.client.terminal.waitForExit,
  killTerminal: 'terminal/kill' satisfies typeof acp.methods.client.terminal.kill,
  releaseTerminal: 'terminal/release' satisfies typeof acp.methods.client.terminal.release,
  createElicitation: 'elicitation/create' satisfies typeof acp.methods.client.elicitation.create,
} as const satisfies Record<string, acp.ClientRequestMethod>;

export type ClientMethodName = keyof typeof CLIENT_METHODS;
export type ClientParams<N extends ClientMethodName> = acp.ClientRequestParamsByMethod[(typeof CLIENT_METHODS)[N]];
export type ClientResult<N extends ClientMethodName> = acp.ClientRequestResponsesByMethod[(typeof CLIENT_METHODS)[N]];

/** What the agent may ask of the editor, one handler per entry of {@link CLIENT_METHODS}. */
export type ClientRequestHandlers = {
  [N in ClientMethodName]: (params: ClientParams<N>, signal: AbortSignal) => Promise<ClientResult<N>>;
};

export const CLIENT_METHOD_NAMES = Object.keys(CLIENT_METHODS) as readonly ClientMethodName[];

/**
 * The same handlers with every request's params passed through `before` first (the editor's
 * session ids, the check that the session is the sender's). `before` may throw: the request then
 * fails with that error.
 */
export function beforeEachRequest(handlers: ClientRequestHandlers, before: <P>(params: P) => P): ClientRequestHandlers {
  const wrapped: Partial<Record<ClientMethodName, (params: unknown, signal: AbortSignal) => Promise<unknown>>> = {};
  for (const name of CLIENT_METHOD_NAMES) {
    const handler = handlers[name] as (params: unknown, signal: AbortSignal) => Promise<unknown>;
    wrapped[name] = async (params, signal) => handler.call(handlers, before(params), signal);
  }
  return wrapped as ClientRequestHandlers;
}

/** Registers every client method of the table on an SDK client app. */
export function onClientRequests(app: acp.ClientApp, handlers: ClientRequestHandlers): void {
  type Register = (method: string, handler: (context: { params: unknown; signal: AbortSignal }) => Promise<unknown>) => unknown;
  const onRequest = app.onRequest.bind(app) as unknown as Register;
  for (const name of CLIENT_METHOD_NAMES) {
    const handler = handlers[name] as (params: unknown, signal: AbortSignal) => Promise<unknown>;
    onRequest(CLIENT_METHODS[name], ({ params, signal }) => handler.call(handlers, params, signal));
  }
}
