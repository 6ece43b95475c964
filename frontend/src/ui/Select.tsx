import { Select as Primitive } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { CheckIcon, ChevronDownIcon } from './icons.ts';
import './ui.css';

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

// Radix reserves the empty value for "nothing chosen"; the app's "all" and "never" choices are ''.
const EMPTY = '__empty__';
const encode = (value: string) => (value === '' ? EMPTY : value);
const decode = (value: string) => (value === EMPTY ? '' : value);

/** A list box styled like the app's fields; named by `label` (or by a `<label htmlFor={id}>`). */
export function Select<T extends string>({ value, onChange, options, label, id, disabled = false, className = '' }: { value: T; onChange: (value: T) => void; options: readonly SelectOption<T>[]; label?: string; id?: string; disabled?: boolean; className?: string }) {
  const { t } = useTranslation();
  return (
    <Primitive.Root value={encode(value)} onValueChange={(next) => onChange(decode(next) as T)} disabled={disabled}>
      <Primitive.Trigger id={id} className={`select-trigger ${className}`} aria-label={label}>
        <Primitive.Value placeholder={t('ui.choose')} />
        <Primitive.Icon className="select-chevron">
          <ChevronDownIcon size={14} />
        </Primitive.Icon>
      </Primitive.Trigger>
      <Primitive.Portal>
        <Primitive.Content className="select-content" position="popper" sideOffset={4}>
          <Primitive.Viewport>
            {options.map((option) => (
              <Primitive.Item key={option.value} value={encode(option.value)} className="select-item">
                <Primitive.ItemText>{option.label}</Primitive.ItemText>
                <Primitive.ItemIndicator className="select-check">
                  <CheckIcon size={14} />
                </Primitive.ItemIndicator>
              </Primitive.Item>
            ))}
          </Primitive.Viewport>
        </Primitive.Content>
      </Primitive.Portal>
    </Primitive.Root>
  );
}
