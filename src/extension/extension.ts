// First: it notes when the bundle began evaluating.
import { moduleEvaluationStartedAt } from './base/startupClock';
import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import type { AcpNativeApi } from './api/api';
import { createApi } from './api/createApi';
import { registerCommands } from './commands';
import { AcpNative } from './root';
import type { Logger } from './base/log';

export type { AcpNativeApi } from './api/api';

export function activate(context: vscode.ExtensionContext): AcpNativeApi {
  const startedAt = performance.now();
  const channel = vscode.window.createOutputChannel('ACP Native', { log: true });
  context.subscriptions.push(channel);
  const acp = new AcpNative(context, channelLogger(channel));
  context.subscriptions.push(acp, ...registerCommands(acp));
  return createApi(acp, context.subscriptions, { moduleEvaluationStartedAt, startedAt, ms: performance.now() - startedAt });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}

function channelLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: (m) => channel.trace(m),
    debug: (m) => channel.debug(m),
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m, ...rest) => channel.error(m, ...rest),
    show: () => channel.show(true),
  };
}
