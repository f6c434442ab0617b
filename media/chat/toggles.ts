/** Boolean config options (`session.configOptions.boolean`) as toggles beside the pickers. */
import type { ChatToggle, WebviewToHost } from '../../src/protocol/chat';
import { el } from './render';

/** Rebuilt only when the toggles themselves change (keeps focus); their values are set each time. */
export function syncToggles(host: HTMLElement, toggles: readonly ChatToggle[] | undefined, post: (message: WebviewToHost) => void, v: number): void {
  const list = toggles ?? [];
  const key = JSON.stringify(list.map((t) => [t.id, t.name, t.description]));
  if (host.dataset.key !== key) {
    host.dataset.key = key;
    host.replaceChildren(
      ...list.map((toggle) => {
        const label = el('label', 'picker toggle');
        const box = el('input', 'config-toggle');
        box.type = 'checkbox';
        box.dataset.configId = toggle.id;
        box.addEventListener('change', () => post({ v, type: 'setConfigOption', configId: toggle.id, value: box.checked }));
        label.title = toggle.description ? `${toggle.name}: ${toggle.description}` : toggle.name;
        label.append(box, el('span', 'picker-name', toggle.name));
        return label;
      }),
    );
  }
  for (const toggle of list) {
    const box = host.querySelector<HTMLInputElement>(`input[data-config-id="${CSS.escape(toggle.id)}"]`);
    if (box) box.checked = toggle.value;
  }
}
