import { Tabs as Primitive } from 'radix-ui';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import './ui.css';

export interface TabItem<T extends string> {
  value: T;
  label: string;
  icon?: ReactNode;
}

/**
 * Tabs whose value usually lives in the URL: arrow keys move between them (and select, as the panel
 * is cheap to swap), and the panel shows `children` for the selected one only. `toolbar` sits at the
 * end of the tab row (a search field, say). On a phone the row scrolls sideways, and keeps the selected
 * tab in view, also when the page opens on a tab far along it.
 */
export function Tabs<T extends string>({ value, onChange, tabs, label, toolbar, className = '', children }: { value: T; onChange: (value: T) => void; tabs: readonly TabItem<T>[]; label: string; toolbar?: ReactNode; className?: string; children: ReactNode }) {
  const list = useRef<HTMLDivElement>(null);
  // Radix focuses a tab from script on mousedown, which Chromium then rings as keyboard focus: a tab
  // picked with the pointer shows no ring until a key is pressed in the row or focus leaves it.
  const [pointing, setPointing] = useState(false);
  useLayoutEffect(() => {
    const row = list.current;
    const active = row?.querySelector('[data-state="active"]');
    if (!row || !active) return;
    const [rowBox, box] = [row.getBoundingClientRect(), active.getBoundingClientRect()];
    // Only the row scrolls: scrollIntoView would move the page too.
    if (box.left < rowBox.left) row.scrollLeft -= rowBox.left - box.left;
    else if (box.right > rowBox.right) row.scrollLeft += box.right - rowBox.right;
  }, [value]);
  return (
    <Primitive.Root value={value} onValueChange={(next) => onChange(next as T)} className={`tabs ${className}`}>
      <div className="tabs-bar">
        <Primitive.List
          ref={list}
          className="tabs-list"
          aria-label={label}
          data-pointing={pointing || undefined}
          onPointerDown={() => setPointing(true)}
          onKeyDown={() => setPointing(false)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) setPointing(false);
          }}
        >
          {tabs.map((tab) => (
            <Primitive.Trigger key={tab.value} value={tab.value} className="tabs-trigger">
              {tab.icon}
              {tab.label}
            </Primitive.Trigger>
          ))}
        </Primitive.List>
        {toolbar}
      </div>
      <Primitive.Content value={value} className="tabs-panel">
        {children}
      </Primitive.Content>
    </Primitive.Root>
  );
}
