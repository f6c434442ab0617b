// First: it notes when the bundle began evaluating.
import { moduleEvaluationStartedAt } from './startupClock';
import * as vscode from 'vscode';
import { performance } from 'node:perf_hooks';
import type { AcpNativeApi } from './api';
import { createApi } from './apiImpl';
import { registerCommands } from './commands';
import { AcpNative } from './context';
import { channelLogger } from './log';

export type { AcpNativeApi } from './api';

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
