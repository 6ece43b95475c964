import { RadioGroup } from 'radix-ui';
import type { ReactNode } from 'react';

export interface SegmentedOption<Value extends string> {
  value: Value;
  label: ReactNode;
  /** Shown on hover, for a choice whose label is a word or two. */
  title?: string;
}

export interface SegmentedProps<Value extends string> {
  value: Value;
  options: readonly SegmentedOption<Value>[];
  onChange: (value: Value) => void;
  disabled?: boolean;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  /** Where the guidance tips point. */
  'data-guide'?: string;
}

/**
 * One choice of a few, side by side: a radio group, so the row is one Tab stop and the arrow keys move
 * the choice (Radix's roving focus), as a screen reader announces it.
 */
export function Segmented<Value extends string>({ value, options, onChange, disabled, ...labelling }: SegmentedProps<Value>) {
  return (
    <RadioGroup.Root className="segmented" value={value} onValueChange={(next) => onChange(next as Value)} disabled={disabled} orientation="horizontal" loop {...labelling}>
      {options.map((option) => (
        <RadioGroup.Item key={option.value} value={option.value} className={option.value === value ? 'active' : undefined} title={option.title}>
          {option.label}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
