import type * as acp from '@agentclientprotocol/sdk';
import type { Logger } from '../base/log';
import type { ClientParams, ClientRequestHandlers, ClientResult } from '../wire/clientMethods';
import type { PermissionService } from '../permissions/permissionService';
import type { ElicitationService } from '../forms/elicitationService';
import type { FileService } from '../workspace/fileService';
import type { ClientTerminals } from '../cards/terminal/clientTerminals';

/**
 * What the action log must hear of the agent's requests (review/actionLogCapture.ts implements
 * it): the copies of large files a call names before the agent may write them, and each
 * `fs/write_text_file` before and after it. A permission's tool call it reads from the store,
 * like any other.
 */
export interface ActionLogPort {
  copiesOf(sessionId: string, toolCallId: string): Promise<void>;
  beforeFsWrite(sessionId: string, path: string): Promise<void>;
  afterFsWrite(sessionId: string, path: string, written: boolean): void;
}

/** Where what a permission request says of its tool call joins the session's card. */
export interface ToolCallMerge {
  /** After the updates queued for the session before it, in order. */
  mergeToolCall(sessionId: string, toolCall: acp.ToolCallUpdate): void;
  /** Resolves once the updates queued for the session so far have landed. */
  settled(sessionId: string): Promise<void>;
}

/** What an `fs/write_text_file` writes: the kept hunks of an edit answered in part (partialApproval/). */
export interface FsWriteFilter {
  contentFor(sessionId: string, path: string, content: string): string;
}

/**
 * What the agent may ask of the editor, in one room: one method per entry of the client method
 * table (wire/clientMethods.ts), each with the rules that join the features it needs. The ids it
 * sees are the editor's (`AgentSessions.requestsFrom` translated them and refused a question
 * about another agent's session).
 */
export class ClientRequests implements ClientRequestHandlers {
  constructor(
    private readonly deps: {
      log: Logger;
      sessions: ToolCallMerge;
      actionLog: ActionLogPort;
      permissions: PermissionService;
      files: FileService;
      terminals: ClientTerminals;
      forms: ElicitationService;
      fsWrites: FsWriteFilter;
    },
  ) {}

  /**
   * Validated once (an unanswerable question is refused before anything else). What the request
   * says of the call (Claude's adapter sends the diff here) joins the card, where the action log
   * reads it; the agent writes once allowed, so the copies of the large files it names are
   * finished first.
   */
  async requestPermission(params: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse> {
    const { permissions, actionLog, sessions } = this.deps;
    permissions.validate(params);
    const { sessionId, toolCall } = params;
    sessions.mergeToolCall(sessionId, toolCall);
    // Applied at once when nothing of the session is queued; else the log sees it once it lands.
    await sessions.settled(sessionId);
    await actionLog.copiesOf(sessionId, toolCall.toolCallId);
    return permissions.request(params, signal);
  }

  readTextFile(params: acp.ReadTextFileRequest, signal: AbortSignal): Promise<acp.ReadTextFileResponse> {
    return this.deps.files.read(params, signal);
  }

  /**
   * The action log reads the file before the write and records what the write made of it. The
   * write of an edit the user approved in part writes only the kept hunks.
   */
  async writeTextFile(request: acp.WriteTextFileRequest, signal: AbortSignal): Promise<acp.WriteTextFileResponse> {
    const { actionLog, files, fsWrites } = this.deps;
    const content = fsWrites.contentFor(request.sessionId, request.path, request.content);
    const params = content === request.content ? request : { ...request, content };
    await actionLog.beforeFsWrite(params.sessionId, params.path);
    let written = false;
    try {
      const response = await files.write(params, signal);
      written = true;
      return response;
    } finally {
      actionLog.afterFsWrite(params.sessionId, params.path, written);
    }
  }

  createTerminal(params: acp.CreateTerminalRequest, signal: AbortSignal): Promise<acp.CreateTerminalResponse> {
    return this.deps.terminals.create(params, signal);
  }

  async terminalOutput(params: ClientParams<'terminalOutput'>): Promise<ClientResult<'terminalOutput'>> {
    return this.deps.terminals.output(params);
  }

  waitForTerminalExit(params: acp.WaitForTerminalExitRequest, signal: AbortSignal): Promise<acp.WaitForTerminalExitResponse> {
    return this.deps.terminals.waitForExit(params, signal);
  }

  async killTerminal(params: acp.KillTerminalRequest): Promise<acp.KillTerminalResponse> {
    return this.deps.terminals.kill(params);
  }

  async releaseTerminal(params: acp.ReleaseTerminalRequest): Promise<acp.ReleaseTerminalResponse> {
    return this.deps.terminals.release(params);
  }

  createElicitation(params: acp.CreateElicitationRequest, signal: AbortSignal): Promise<acp.CreateElicitationResponse> {
    return this.deps.forms.request(params, signal);
  }
}
