import { ToggleGroup } from 'radix-ui';

/**
 * Options to choose one or several of, laid out as the caller styles `className` and each option
 * (`optionClassName`, plus `active` when chosen): one Tab stop for the group, the arrow keys move
 * between options (Radix's roving focus), Space or Enter chooses. One answer is a radio group;
 * several are toggle buttons in a group, as a screen reader announces them.
 */
export function OptionGroup({ options, chosen, multiple, onChange, className, optionClassName }: { options: readonly string[]; chosen: readonly string[]; multiple: boolean; onChange: (chosen: string[]) => void; className: string; optionClassName: string }) {
  const items = options.map((option) => (
    <ToggleGroup.Item key={option} value={option} className={`${optionClassName}${chosen.includes(option) ? ' active' : ''}`}>
      {option}
    </ToggleGroup.Item>
  ));
  return multiple ? (
    <ToggleGroup.Root type="multiple" role="group" className={className} loop value={[...chosen]} onValueChange={onChange}>
      {items}
    </ToggleGroup.Root>
  ) : (
    <ToggleGroup.Root type="single" className={className} loop value={chosen[0] ?? ''} onValueChange={(value) => onChange(value === '' ? [] : [value])}>
      {items}
    </ToggleGroup.Root>
  );
}
