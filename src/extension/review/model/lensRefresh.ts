/**
 * When the hunk lenses must tell the window to ask again (pure).
 *
 * Each `onDidChangeCodeLenses` is a message to the window, which then asks every visible editor's
 * lenses again. The action log changes with every file of every tool call, mostly files no editor
 * shows: during a storm of edits that was a message every 50 ms for nothing (in remote and browser
 * VS Code each is also compressed by the extension host). An editor that comes on screen later asks
 * for its lenses itself, so only editors on screen now matter: those whose file has a change to
 * review, and those last given lenses (which may now have to go).
 */
export function lensesMayChange(visiblePaths: Iterable<string>, shownLenses: ReadonlySet<string>, reviewable: (path: string) => boolean): boolean {
  for (const path of visiblePaths) if (shownLenses.has(path) || reviewable(path)) return true;
  return false;
}
