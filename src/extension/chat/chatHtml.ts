import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';

/**
 * The Chat webview's page: one script and one stylesheet from `media/chat`, nothing remote. The
 * Content-Security-Policy allows only those (scripts by nonce), images as data URIs only, and no
 * connections at all.
 */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(16).toString('base64');
  const media = (file: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat', file)).toString();
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource}`,
    `font-src ${webview.cspSource}`,
    // Images arrive as content blocks (base64) and are shown as data URIs; nothing is fetched.
    'img-src data:',
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('chat.css')}">
<title>Chat</title>
</head>
<body>
<div id="app" data-testid="chat-app"></div>
<script nonce="${nonce}" src="${media('chat.js')}"></script>
</body>
</html>`;
}

/** Only the built chat assets are reachable from the webview. */
export function chatResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media', 'chat')];
}
