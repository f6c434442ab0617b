/**
 * The ACP face of the agent: request handlers for one client connection, built with the SDK's
 * app builder. Sessions do the work; this file maps methods onto them.
 */
import { randomUUID } from 'node:crypto';
import * as acp from '@agentclientprotocol/sdk';
import { clientWantsTerminalOutput } from '../protocol/terminalMeta';
import type { Brain } from './brains/types';
import type { AgentConfig } from './config';
import type { ClientFs } from './files/client';
import { clientOffersFs, fileStoreFor } from './files/select';
import { log } from './log';
import { isModeId, modeState } from './permissions';
import { AgentSession, type SessionDeps } from './session';
import { listSessions } from './sessionLog';

const LIST_PAGE_SIZE = 50;

export interface AgentAppDeps {
  config: AgentConfig;
  brain: Brain;
  version: string;
}

export interface AgentServer {
  app: acp.AgentApp;
  /** Stops every session: kills their processes and closes their logs. */
  closeAll(): Promise<void>;
}

export function createAgentServer({ config, brain, version }: AgentAppDeps): AgentServer {
  const sessions = new Map<string, AgentSession>();
  let terminalOutput = false;
  let filesThroughClient = false;

  const sessionDeps = (client: acp.AgentContext): SessionDeps => ({
    stateDir: config.stateDir,
    brain,
    terminalOutput,
    defaultMode: config.defaultMode,
    fileStore: (sessionId) => fileStoreFor(filesThroughClient, clientFs(client), sessionId),
    sendUpdate: (sessionId) => (update) => client.notify(acp.methods.client.session.update, { sessionId, update }),
    requestPermission: (request) => client.request(acp.methods.client.session.requestPermission, request),
    agentVersion: version,
  });

  const sessionFor = (sessionId: string): AgentSession => {
    const session = sessions.get(sessionId);
    if (session === undefined) throw acp.RequestError.resourceNotFound(sessionId);
    return session;
  };

  /** A session ready to go on: the one in memory (idle), or reopened from its log. */
  const reopen = (client: acp.AgentContext, sessionId: string, cwd: string): { session: AgentSession; replay: () => acp.SessionUpdate[] } => {
    const existing = sessions.get(sessionId);
    if (existing?.busy) throw acp.RequestError.invalidRequest(undefined, `session ${sessionId} is running a prompt`);
    // Kept as it is, with its background tasks: a client reloading its view must not kill them.
    if (existing !== undefined) return { session: existing, replay: () => existing.replay() };
    const opened = AgentSession.open(sessionDeps(client), sessionId, cwd);
    if (opened === undefined) throw acp.RequestError.resourceNotFound(sessionId);
    sessions.set(sessionId, opened.session);
    return { session: opened.session, replay: () => opened.replay };
  };

  const app = acp
    .agent({ name: 'acp-native-agent' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      terminalOutput = clientWantsTerminalOutput(params.clientCapabilities);
      filesThroughClient = clientOffersFs(params.clientCapabilities);
      log.info(
        `client ${params.clientInfo?.name ?? 'unknown'} connected (display terminals: ${terminalOutput ? 'yes' : 'no'}, ` +
          `files: ${filesThroughClient ? "through the client's fs/*" : 'local disk'})`,
      );
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          // MCP servers over stdio, streamable HTTP and SSE (src/agent/mcp/).
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {}, additionalDirectories: {} },
        },
        agentInfo: { name: 'acp-native-agent', title: 'ACP Native (bundled agent)', version },
        authMethods: [],
      };
    })
    .onRequest(acp.methods.agent.session.new, ({ params, client }) => {
      const sessionId = randomUUID();
      const session = AgentSession.create(sessionDeps(client), sessionId, params.cwd);
      session.setAdditionalDirectories(params.additionalDirectories);
      sessions.set(sessionId, session);
      session.useMcpServers(params.mcpServers);
      return { sessionId, modes: modeState(session.modeId) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      const { session, replay } = reopen(client, params.sessionId, params.cwd);
      session.useMcpServers(params.mcpServers);
      session.setAdditionalDirectories(params.additionalDirectories);
      await session.sendAll(replay());
      return { modes: modeState(session.modeId) };
    })
    .onRequest(acp.methods.agent.session.resume, ({ params, client }) => {
      const { session } = reopen(client, params.sessionId, params.cwd);
      session.useMcpServers(params.mcpServers ?? []);
      session.setAdditionalDirectories(params.additionalDirectories);
      return { modes: modeState(session.modeId) };
    })
    .onRequest(acp.methods.agent.session.list, ({ params }) => {
      const all = listSessions(config.stateDir, params.cwd ?? undefined);
      const start = params.cursor ? Number.parseInt(params.cursor, 10) || 0 : 0;
      const page = all.slice(start, start + LIST_PAGE_SIZE);
      const next = start + LIST_PAGE_SIZE < all.length ? String(start + LIST_PAGE_SIZE) : null;
      return { sessions: page, nextCursor: next };
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (session === undefined) throw acp.RequestError.resourceNotFound(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      return {};
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      if (!isModeId(params.modeId)) throw acp.RequestError.invalidParams(undefined, `unknown mode ${params.modeId}`);
      sessionFor(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
      const session = sessionFor(params.sessionId);
      if (session.busy) throw acp.RequestError.invalidRequest(undefined, 'a prompt is already running in this session');
      return { stopReason: await session.prompt(params.prompt) };
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });

  return {
    app,
    async closeAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((s) => s.close()));
    },
  };
}

function clientFs(client: acp.AgentContext): ClientFs {
  return {
    readTextFile: (params) => client.request(acp.methods.client.fs.readTextFile, params),
    writeTextFile: (params) => client.request(acp.methods.client.fs.writeTextFile, params),
  };
}
