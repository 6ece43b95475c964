import { Tooltip as Primitive } from 'radix-ui';
import type { ReactElement } from 'react';
import './ui.css';

/**
 * A hint on hover and on keyboard focus. It describes; it does not name: an icon-only control still
 * needs its own aria-label. It brings its own provider rather than one around the app, so Radix's
 * tooltip and its positioning (floating-ui) load with the screens that show one, not with every page.
 */
export function Tooltip({ label, side = 'top', children }: { label: string; side?: 'top' | 'right' | 'bottom' | 'left'; children: ReactElement }) {
  return (
    <Primitive.Provider delayDuration={400}>
      <Primitive.Root>
        <Primitive.Trigger asChild>{children}</Primitive.Trigger>
        <Primitive.Portal>
          <Primitive.Content className="tooltip" side={side} sideOffset={6}>
            {label}
          </Primitive.Content>
        </Primitive.Portal>
      </Primitive.Root>
    </Primitive.Provider>
  );
}
