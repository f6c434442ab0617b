/**
 * The terminal panels client terminals write to, as the bench sees them: the real pseudoterminal
 * (cards/terminal/outputPseudoterminal.ts), opened at once, its output consumed and counted.
 */
import { OutputPseudoterminal } from '../../src/extension/cards/terminal/outputPseudoterminal';

export function terminalPanels() {
  let rendered = 0;
  const panels = {
    open(options: { terminalId: string; name: string; header?: string; onUserClose?: () => void }) {
      const pty = new OutputPseudoterminal({ header: options.header, onUserClose: options.onUserClose });
      pty.onDidWrite((data) => (rendered += data.length));
      pty.open();
      return pty;
    },
  };
  return { deps: { panels }, renderedChars: () => rendered };
}
