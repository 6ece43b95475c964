import { Tooltip as Primitive } from 'radix-ui';
import type { ReactElement } from 'react';
import './ui.css';

/**
 * A hint on hover and on keyboard focus. It describes; it does not name: an icon-only control still
 * needs its own aria-label.
 */
export function Tooltip({ label, side = 'top', children }: { label: string; side?: 'top' | 'right' | 'bottom' | 'left'; children: ReactElement }) {
  return (
    <Primitive.Root>
      <Primitive.Trigger asChild>{children}</Primitive.Trigger>
      <Primitive.Portal>
        <Primitive.Content className="tooltip" side={side} sideOffset={6}>
          {label}
        </Primitive.Content>
      </Primitive.Portal>
    </Primitive.Root>
  );
}

export const TooltipProvider = Primitive.Provider;
