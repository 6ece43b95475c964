import { ContextMenu, DropdownMenu } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';
import './ui.css';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
}

type Parts = typeof DropdownMenu | typeof ContextMenu;

function Items({ parts, items }: { parts: Parts; items: readonly MenuItem[] }) {
  return items.map((item) => (
    <parts.Item key={item.label} className={`menu-item${item.danger ? ' menu-item-danger' : ''}`} disabled={item.disabled} onSelect={item.onSelect}>
      {item.icon}
      {item.label}
    </parts.Item>
  ));
}

/**
 * A menu behind a button: arrow keys move through it, typing jumps to an item, Escape closes it and
 * focus goes back to the button. `trigger` must be a button (it receives the menu's aria props).
 */
export function Menu({ trigger, items, align = 'end' }: { trigger: ReactElement; items: readonly MenuItem[]; align?: 'start' | 'end' }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align={align} sideOffset={4}>
          <Items parts={DropdownMenu} items={items} />
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** The same items on a right click (or the context-menu key) anywhere on `children`. */
export function ContextMenuArea({ items, children }: { items: readonly MenuItem[]; children: ReactElement }) {
  return (
    <ContextMenu.Root modal={false}>
      <ContextMenu.Trigger asChild>{children}</ContextMenu.Trigger>
      <ContextMenu.Portal>
        <ContextMenu.Content className="menu">
          <Items parts={ContextMenu} items={items} />
        </ContextMenu.Content>
      </ContextMenu.Portal>
    </ContextMenu.Root>
  );
}
