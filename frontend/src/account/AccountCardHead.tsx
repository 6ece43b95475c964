import type { ReactNode } from 'react';

/** A card's head in the status dialog: its icon, its title (`titleId` when the card is labelled by it) and what sits beside them. */
export function AccountCardHead({ icon, title, titleId, children }: { icon: ReactNode; title: string; titleId?: string; children?: ReactNode }) {
  return (
    <header className="account-card-head">
      <span className="account-card-icon">{icon}</span>
      <h3 id={titleId}>{title}</h3>
      {children}
    </header>
  );
}
