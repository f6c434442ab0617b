/**
 * A test client built on the SDK (`acp.client`) driving the real `dist/agent.js` over real stdio.
 * The byte streams between the two processes are tapped: every line in either direction is
 * validated against the ACP schema, and kept for inspection.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { EditorFs } from './clientFs';
import { ProtocolValidator, type Side } from './protocolValidator';

export const AGENT_JS = path.resolve(__dirname, '../../../dist/agent.js');

/** How the test client answers a permission request: an option kind, or `cancelled`. */
export type PermissionPolicy = (request: acp.RequestPermissionRequest) => acp.PermissionOptionKind | 'cancelled' | Promise<acp.PermissionOptionKind | 'cancelled'>;

export interface AgentOptions {
  stateDir: string;
  /** Advertise `clientCapabilities._meta.terminal_output`. */
  terminalOutput: boolean;
  args?: string[];
  env?: Record<string, string>;
  permission?: PermissionPolicy;
  /** Advertise `fs.readTextFile` and `fs.writeTextFile`, served by this "editor". */
  fs?: EditorFs;
}

export class AgentUnderTest {
  readonly validator = new ProtocolValidator();
  /** Every session/update, per session, in arrival order. */
  readonly updates = new Map<string, acp.SessionUpdate[]>();
  readonly permissionRequests: acp.RequestPermissionRequest[] = [];
  /** Hooks run on each update as it arrives (e.g. to cancel at the right moment). */
  readonly onUpdate: ((sessionId: string, update: acp.SessionUpdate) => void)[] = [];
  stderr = '';
  readonly connection: acp.ClientConnection;
  readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly options: AgentOptions,
  ) {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (this.stderr += text));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));

    const fromAgent = (Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>).pipeThrough(this.tap('agent'));
    const toAgent = this.tap('client');
    void toAgent.readable.pipeTo(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>).catch(() => {});

    let app = acp
      .client({ name: 'e2e-test-client' })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        const list = this.updates.get(params.sessionId) ?? [];
        list.push(params.update);
        this.updates.set(params.sessionId, list);
        for (const hook of this.onUpdate) hook(params.sessionId, params.update);
      })
      .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
        this.permissionRequests.push(params);
        const choice = await (this.options.permission ?? (() => 'allow_once' as const))(params);
        if (choice === 'cancelled') return { outcome: { outcome: 'cancelled' } };
        const option = params.options.find((o) => o.kind === choice);
        if (option === undefined) throw new Error(`no ${choice} option offered`);
        return { outcome: { outcome: 'selected', optionId: option.optionId } };
      });
    const fs = options.fs;
    if (fs !== undefined) {
      app = app
        .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => fs.read(params))
        .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => fs.write(params));
    }
    this.connection = app.connect(acp.ndJsonStream(toAgent.writable, fromAgent));
  }

  static async start(options: AgentOptions): Promise<AgentUnderTest> {
    const child = spawn(process.execPath, [AGENT_JS, '--state-dir', options.stateDir, ...(options.args ?? [])], {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const agent = new AgentUnderTest(child, options);
    await agent.connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {
        ...(options.terminalOutput ? { _meta: { terminal_output: true } } : {}),
        ...(options.fs ? { fs: { readTextFile: true, writeTextFile: true } } : {}),
      },
      clientInfo: { name: 'e2e-test-client', version: '0.0.0' },
    });
    return agent;
  }

  /** The agent's process id (to read its memory from /proc). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get agent(): acp.ClientContext {
    return this.connection.agent;
  }

  async newSession(cwd: string, mcpServers: acp.McpServer[] = []): Promise<acp.NewSessionResponse> {
    return this.agent.request(acp.methods.agent.session.new, { cwd, mcpServers });
  }

  /** Sends a prompt; returns its stop reason and the updates that arrived during the turn. */
  async prompt(sessionId: string, text: string): Promise<{ stopReason: acp.StopReason; updates: acp.SessionUpdate[] }> {
    const before = this.updates.get(sessionId)?.length ?? 0;
    const response = await this.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] });
    return { stopReason: response.stopReason, updates: (this.updates.get(sessionId) ?? []).slice(before) };
  }

  /** Loads a session; returns the replayed updates. */
  async load(sessionId: string, cwd: string, mcpServers: acp.McpServer[] = []): Promise<{ response: acp.LoadSessionResponse; updates: acp.SessionUpdate[] }> {
    const before = this.updates.get(sessionId)?.length ?? 0;
    const response = await this.agent.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers });
    return { response, updates: (this.updates.get(sessionId) ?? []).slice(before) };
  }

  cancel(sessionId: string): Promise<void> {
    return this.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  /** Closes stdin (the normal way to end an agent) and waits for it to exit. */
  async stop(): Promise<number | null> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    const code = await this.exited;
    clearTimeout(timer);
    this.connection.close();
    return code;
  }

  /** A pass-through stream that validates each newline-delimited message it carries. */
  private tap(from: Side): TransformStream<Uint8Array, Uint8Array> {
    const decoder = new TextDecoder();
    let pending = '';
    return new TransformStream({
      transform: (chunk, controller) => {
        // Only the new text can hold a newline: big messages arrive in many chunks.
        const searchFrom = pending.length;
        pending += decoder.decode(chunk, { stream: true });
        let newline = pending.indexOf('\n', searchFrom);
        while (newline !== -1) {
          const line = pending.slice(0, newline).trim();
          pending = pending.slice(newline + 1);
          if (line !== '') this.validator.check(from, line);
          newline = pending.indexOf('\n');
        }
        controller.enqueue(chunk);
      },
    });
  }
}
