import * as vscode from 'vscode';
import { TraceFormatter, type TraceDirection } from '../wire/traceFormat';
import type { Config, TraceSetting } from '../config';
import { Disposable } from '../base/lifecycle';

const RECENT_LINES = 500;

/**
 * The "ACP Trace" output channel (`acpNative.trace`): each JSON-RPC message to and from the agent,
 * one line each (`messages`) or with its body, secrets masked (`verbose`). The channel is created
 * the first time there is something to write, so it does not exist for people who never trace.
 */
export class ProtocolTrace extends Disposable {
  private channel: vscode.LogOutputChannel | undefined;
  private readonly formatters = new Map<string, TraceFormatter>();
  /** The latest lines written, for `ACP: Show Protocol Trace`'s callers (tests). */
  private readonly recent: string[] = [];
  /**
   * The setting, read when it changes rather than per message: the tap sees every line of a flood,
   * and reading the configuration each time was a cost per message with tracing off.
   */
  private level: TraceSetting;

  constructor(config: Config) {
    super();
    this.level = config.trace;
    this._register(config.onDidChange(['trace'], () => (this.level = config.trace)));
    this._register({ dispose: () => this.channel?.dispose() });
  }

  /** The tap given to each agent connection; lines are decoded for it only while it is on. */
  readonly write = Object.assign((agentName: string, direction: TraceDirection, line: string) => this.writeLine(agentName, direction, line), {
    isActive: () => this.level !== 'off',
  });

  private writeLine(agentName: string, direction: TraceDirection, line: string): void {
    const level = this.level;
    if (level === 'off') return;
    let formatter = this.formatters.get(agentName);
    if (!formatter) this.formatters.set(agentName, (formatter = new TraceFormatter()));
    const text = formatter.format(direction, line, level);
    if (text === undefined) return;
    this.channel ??= vscode.window.createOutputChannel('ACP Trace', { log: true });
    this.channel.info(`[${agentName}] ${text}`);
    this.recent.push(`[${agentName}] ${text}`);
    if (this.recent.length > RECENT_LINES) this.recent.shift();
  }

  /** Shows the channel; returns the latest lines written to it. */
  show(): string[] {
    this.channel ??= vscode.window.createOutputChannel('ACP Trace', { log: true });
    this.channel.show(true);
    return [...this.recent];
  }
}
