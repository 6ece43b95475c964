import { createInterface, type Interface } from 'node:readline';
import { Lines } from './lines.ts';

type Input = NodeJS.ReadableStream & { isTTY?: boolean };

/**
 * The one reader of the process's input. Every question (user name, password, the chat's prompt,
 * "run this command?") takes its answer from here, one line each: a reader per question would lose
 * lines, since the first to read piped input takes all of it and the next waits for more forever.
 */
export class Terminal {
  readonly tty: boolean;
  readonly lines = new Lines();
  private readonly readline: Interface;
  private hiding = false;
  private closed = false;

  constructor(input: Input, private readonly output: NodeJS.WritableStream) {
    this.tty = input.isTTY === true;
    // Piped input is not echoed, so readline has nothing to draw.
    this.readline = createInterface({ input, output: this.tty ? output : undefined, terminal: this.tty });
    this.readline.on('line', (line) => this.lines.push(line));
    this.readline.on('close', () => {
      this.closed = true;
      this.lines.close();
    });
    if (this.tty) {
      // readline draws each key typed, and redraws the prompt with the whole line on an edit (a
      // backspace): while a secret is typed, only the prompt is drawn.
      const readline = this.readline as unknown as { _writeToOutput: (text: string) => void };
      const draw = readline._writeToOutput.bind(readline);
      readline._writeToOutput = (text) => {
        const prompt = this.readline.getPrompt();
        if (!this.hiding) draw(text);
        else if (text.startsWith(prompt)) draw(prompt);
      };
    }
  }

  /** Shows a question. On a terminal it becomes readline's prompt, so it is drawn again whenever the line typed after it is. */
  show(question: string): void {
    if (!this.tty) this.output.write(question);
    // A session stopped from the browser has closed the reader before its last prompt is due.
    else if (!this.closed) {
      this.readline.setPrompt(question);
      this.readline.prompt();
    }
  }

  /** Asks and waits for the answer: the next line, or null if the input ended first. A secret is not shown as it is typed. */
  async ask(question: string, secret = false): Promise<string | null> {
    this.hiding = secret;
    this.show(question);
    const answer = await this.lines.next().line;
    this.hiding = false;
    // readline draws the end of a line typed on the terminal, but not of a hidden or piped one, nor of input that ended.
    if (secret || !this.tty || answer === null) this.output.write('\n');
    return answer;
  }

  /** Ctrl-C typed on the terminal (readline reads it as a key, so no signal reaches the process). */
  onInterrupt(listener: () => void): void {
    this.readline.on('SIGINT', listener);
  }

  close(): void {
    this.readline.close();
  }
}
