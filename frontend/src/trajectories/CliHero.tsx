import { TerminalIcon } from '../ui/icons.ts';

/** The heading of the CLI pages: the terminal mark, a title, one line of what the page is. */
export function CliHero({ title, subtitle }: { title: string; subtitle: string }) {
  return (
    <header>
      <span className="cli-landing-icon">
        <TerminalIcon size={26} />
      </span>
      <h1>{title}</h1>
      <p className="muted">{subtitle}</p>
    </header>
  );
}
