/**
 * A command to run: a whole command line for the shell (`!npm test && echo ok`, a proposal, a
 * command sent from the browser), or a program with its arguments, run exactly as given with no
 * shell between (`scriptorium run -- printf '%s\n' "hello world"`: the user's shell has already
 * split and unquoted them, and a second shell would split and unquote them again).
 */
export type Command = string | readonly [program: string, ...args: string[]];

/**
 * What `scriptorium run -- …` was asked to run, or null for nothing: one argument is a command
 * line typed whole (`run -- "npm test && echo ok"`), several are a program and its arguments.
 */
export function commandFromArgs(args: readonly string[]): Command | null {
  const [program, ...rest] = args;
  if (rest.length === 0) return program?.trim() || null;
  return program ? [program, ...rest] : null;
}

// Python's shlex.quote set: words of these characters mean the same to the shell quoted or not.
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** One word as the shell reads it back; a program name with `=` would read as a variable assignment. */
function quoted(word: string, isProgram: boolean): string {
  if (PLAIN_WORD.test(word) && !(isProgram && word.includes('='))) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command as one line, which a POSIX shell runs as the same thing: how it is shown and recorded. */
export function commandLine(command: Command): string {
  return typeof command === 'string' ? command : command.map((word, at) => quoted(word, at === 0)).join(' ');
}
