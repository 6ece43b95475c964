/** The product mark: a folded page with two ruled lines, in the primary colour. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="9" fill="var(--primary)" />
      <path d="M10 9h9a4 4 0 0 1 4 4v10H14a4 4 0 0 1-4-4z" fill="none" stroke="var(--on-primary)" strokeWidth="2.2" strokeLinejoin="round" />
      <path d="M14 14h5M14 18h5" stroke="var(--on-primary)" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}
