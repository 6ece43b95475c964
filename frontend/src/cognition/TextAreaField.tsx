import { useId } from 'react';
import './cognition.css';

export function TextAreaField({ label, value, onChange, error, rows = 4, placeholder, hint }: { label: string; value: string; onChange: (value: string) => void; error?: string | undefined; rows?: number; placeholder?: string; hint?: string }) {
  const id = useId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} className="cog-textarea" rows={rows} value={value} placeholder={placeholder} aria-invalid={error ? true : undefined} onChange={(event) => onChange(event.target.value)} />
      {hint && !error && <p className="cog-field-hint">{hint}</p>}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
