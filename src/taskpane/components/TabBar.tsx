/** The pane switcher: WAI-ARIA tabs with roving tabindex and arrow/Home/End keys. */
import { useRef } from 'preact/hooks';
import type { TabId } from '../types';

export interface TabSpec {
  id: TabId;
  label: string;
}

export function tabId(id: TabId): string {
  return `qf-tab-${id}`;
}

export function panelId(id: TabId): string {
  return `qf-panel-${id}`;
}

export function TabBar(props: { tabs: TabSpec[]; selected: TabId; onSelect: (id: TabId) => void }) {
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});

  const onKeyDown = (e: KeyboardEvent) => {
    const index = props.tabs.findIndex((t) => t.id === props.selected);
    let next = -1;
    if (e.key === 'ArrowRight') next = (index + 1) % props.tabs.length;
    else if (e.key === 'ArrowLeft') next = (index - 1 + props.tabs.length) % props.tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = props.tabs.length - 1;
    if (next < 0) return;
    e.preventDefault();
    const id = props.tabs[next]!.id;
    props.onSelect(id);
    refs.current[id]?.focus();
  };

  return (
    <div class="qf-tabs" role="tablist" aria-label="Questionnaire Filler" onKeyDown={onKeyDown}>
      {props.tabs.map((t) => (
        <button
          key={t.id}
          ref={(el) => {
            refs.current[t.id] = el;
          }}
          type="button"
          role="tab"
          class="qf-tab"
          id={tabId(t.id)}
          aria-selected={t.id === props.selected}
          aria-controls={panelId(t.id)}
          tabIndex={t.id === props.selected ? 0 : -1}
          onClick={() => props.onSelect(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}
