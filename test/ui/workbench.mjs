// @ts-check
// What the UI tests share: the page the launcher (test/ui/run.mjs) opened, and helpers that
// find their way around the VS Code workbench. Every wait is bounded.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../harness/host/codeServer.mjs';

/** The chat protocol's version as the extension and its webview speak it, for messages a test posts itself. */
export const CHAT_PROTOCOL_VERSION = Number(/CHAT_PROTOCOL_VERSION = (\d+);/.exec(readFileSync(join(repoRoot, 'src/protocol/chat.ts'), 'utf8'))?.[1]);

/**
 * Filled by the launcher before the tests load.
 * @type {{ page: import('playwright-core').Page | undefined, workspace: string | undefined, url: string | undefined, userDataDir: string | undefined }}
 */
export const ui = { page: undefined, workspace: undefined, url: undefined, userDataDir: undefined };

/** The workbench page the launcher opened. */
export function workbenchPage() {
  if (!ui.page) throw new Error('no workbench page: run the UI tests through test/ui/run.mjs');
  return ui.page;
}

export const WAIT = 20_000;

/** Loads the workbench unless an earlier suite already did, and waits for the ACP activity-bar item. */
export async function openWorkbench() {
  const page = workbenchPage();
  if (!(await page.locator('.monaco-workbench').count())) {
    if (!ui.url) throw new Error('the launcher gives no workbench URL');
    await page.goto(ui.url, { waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  }
  await page.locator('.part.activitybar a.action-label[aria-label="ACP"]').first().waitFor({ state: 'visible', timeout: 60_000 });
}

/**
 * The Chat webview's document. A webview view is two nested iframes: the workbench's
 * `iframe.webview` (its host page, from VS Code) and inside it `#active-frame`, our page. Only
 * one webview exists in these tests.
 */
export function chat() {
  return workbenchPage().frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

/** The Frame object of the chat (for evaluate()). */
export async function chatFrame() {
  const deadline = Date.now() + WAIT;
  for (;;) {
    for (const frame of workbenchPage().frames()) {
      if (frame.name() === 'active-frame' || frame.url().includes('fake.html')) {
        if (await frame.locator('#app textarea.prompt').count().catch(() => 0)) return frame;
      }
    }
    if (Date.now() > deadline) throw new Error('the chat webview frame did not appear');
    await workbenchPage().waitForTimeout(100);
  }
}

/** Runs a command from the palette by its full title ("ACP: Focus Chat"). */
export async function runCommand(title) {
  const page = workbenchPage();
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible', timeout: WAIT });
  await input.fill(`>${title}`);
  // The row of this command exactly: "ACP: New Session" also matches "ACP: New Session with
  // Agent…", which the palette lists first once it was run recently.
  const exactly = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = page.locator('.quick-input-widget .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: exactly }) }).first();
  await row.click({ timeout: WAIT });
}

/**
 * Runs a palette command with the workbench focused: keys typed while the focus is inside a
 * webview (the chat, or an earlier suite's) may not reach the workbench's F1. Retries once.
 * @param {string} title
 */
export async function palette(title) {
  const page = workbenchPage();
  await page.keyboard.press('Escape');
  await page.locator('.part.statusbar').click({ position: { x: 600, y: 10 } });
  await runCommand(title).catch(async () => {
    await page.locator('.part.statusbar').click({ position: { x: 600, y: 10 } });
    await runCommand(title);
  });
}

/**
 * A screenshot of the whole workbench (1280x800, as the README shows it): into test-results/screenshots,
 * or into docs/images (the README's pictures) with ACP_UPDATE_SCREENSHOTS=1, so that a test run
 * leaves the work tree as it was.
 */
export async function screenshot(name) {
  const dir = process.env.ACP_UPDATE_SCREENSHOTS === '1' ? join(repoRoot, 'docs', 'images') : join(repoRoot, 'test-results', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await workbenchPage().screenshot({ path: join(dir, `${name}.png`), timeout: WAIT });
}

/**
 * Types a prompt into the chat and sends it with `key` (Enter, or Alt+Enter to queue); newlines
 * are typed with Shift+Enter.
 * @param {string} text
 * @param {string} [key]
 */
export async function sendPrompt(text, key = 'Enter') {
  const box = chat().locator('textarea.prompt');
  await box.click({ timeout: WAIT });
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (i > 0) await box.press('Shift+Enter');
    if (lines[i]) await box.pressSequentially(lines[i], { delay: 0 });
  }
  // Keys typed while the focus moves go elsewhere. The chat's own focus on a new session did that
  // (test/ui/sessions.test.mjs guards it); should anything else, the test is about what the
  // prompt does: the text is put in whole, and that it happened is said.
  const typed = await box.inputValue();
  if (typed !== text) {
    console.log(`      [ui] keys went astray while typing: the box held ${JSON.stringify(typed)}; filled with the whole prompt instead`);
    await box.fill(text);
  }
  await box.press(key);
}

/**
 * Sends a prompt and waits for its turn to end. The chat saying idle is not enough alone: right
 * after Enter the prompt may not have reached the session yet, and a wait for idle then passes
 * before the turn began (a prompt typed next would then steer into it, or land in the session
 * opened next). So first the prompt's own row, counted by its last line, then idle.
 * @param {string} text
 */
export async function turn(text) {
  const lastLine = text.split('\n').filter(Boolean).at(-1) ?? text;
  const rows = chat().locator('.row-user', { hasText: lastLine });
  const before = await rows.count();
  await sendPrompt(text);
  const deadline = Date.now() + WAIT;
  while ((await rows.count()) <= before) {
    if (Date.now() > deadline) throw new Error(`the prompt "${lastLine}" never showed in the chat`);
    await workbenchPage().waitForTimeout(50);
  }
  await chat().locator('body[data-activity="idle"]').waitFor({ state: 'attached', timeout: WAIT });
}
