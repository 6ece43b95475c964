/**
 * Arithmetic for the calculator tool, by a recursive-descent parser over a fixed grammar, so an
 * expression written by a model or a user can compute and never run code.
 *
 *   expression := term (('+' | '-') term)*
 *   term       := unary (('*' | '/' | '%') unary)*
 *   unary      := ('+' | '-') unary | power
 *   power      := primary ('^' unary)?          right-associative; -2^2 is -(2^2), 2^-1 works
 *   primary    := number | constant | name '(' expression (',' expression)* ')' | '(' expression ')'
 *
 * `%` is the remainder. Chinese input forms are accepted: × ÷ （ ） ， and full-width digits.
 */

import { CatalogueError, refusal } from '../protocol/errors.ts';

/** An expression that does not compute, worded by the catalogue. */
export class CalculatorError extends CatalogueError {
  override name = 'CalculatorError';
}

export const MAX_EXPRESSION_CHARS = 1_000;
const MAX_DEPTH = 100;

const FUNCTIONS: Record<string, { arity: [number, number]; apply: (args: number[]) => number }> = {
  sqrt: {
    arity: [1, 1],
    apply: ([x = 0]) => {
      if (x < 0) throw new CalculatorError(refusal('tools.sqrt_negative'));
      return Math.sqrt(x);
    },
  },
  log: {
    arity: [1, 2],
    apply: ([x = 0, base = 10]) => {
      if (x <= 0) throw new CalculatorError(refusal('tools.log_argument'));
      if (base <= 0 || base === 1) throw new CalculatorError(refusal('tools.log_base'));
      return Math.log(x) / Math.log(base);
    },
  },
  ln: {
    arity: [1, 1],
    apply: ([x = 0]) => {
      if (x <= 0) throw new CalculatorError(refusal('tools.log_argument'));
      return Math.log(x);
    },
  },
  abs: { arity: [1, 1], apply: ([x = 0]) => Math.abs(x) },
  round: {
    arity: [1, 2],
    apply: ([x = 0, digits = 0]) => {
      if (!Number.isInteger(digits) || digits < 0 || digits > 15) throw new CalculatorError(refusal('tools.round_digits'));
      const scale = 10 ** digits;
      // Math.round rounds -2.5 to -2; rounding half away from zero is what people expect.
      return (Math.sign(x) * Math.round(Math.abs(x) * scale)) / scale;
    },
  },
};

const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

type Token = { kind: 'number'; value: number } | { kind: 'name'; value: string } | { kind: 'op'; value: string };

/** The value of an expression, rounded to 15 significant digits so that 0.1 + 0.2 is 0.3. */
export function evaluate(expression: string): number {
  if (expression.length > MAX_EXPRESSION_CHARS) throw new CalculatorError(refusal('tools.expression_too_long', { max: MAX_EXPRESSION_CHARS }));
  const tokens = tokenize(normalize(expression));
  if (tokens.length === 0) throw new CalculatorError(refusal('tools.expression_empty'));
  const parser = new Parser(tokens);
  const value = parser.parse();
  if (!Number.isFinite(value)) throw new CalculatorError(refusal('tools.out_of_range'));
  return Number(value.toPrecision(15));
}

function normalize(text: string): string {
  return text
    .replace(/[\uff10-\uff19]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0))
    .replace(/[×＊·]/g, '*')
    .replace(/[÷／]/g, '/')
    .replace(/（/g, '(')
    .replace(/）/g, ')')
    .replace(/，/g, ',')
    .replace(/＋/g, '+')
    .replace(/[－−]/g, '-')
    .replace(/\*\*/g, '^')
    .replace(/％/g, '%');
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s+|(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?|([a-zA-Z]+)|([-+*/%^(),])/y;
  let position = 0;
  while (position < text.length) {
    pattern.lastIndex = position;
    const match = pattern.exec(text);
    if (!match) throw new CalculatorError(refusal('tools.unknown_character', { character: Array.from(text.slice(position))[0]!, position: position + 1 }));
    position = pattern.lastIndex;
    if (match[1] !== undefined) tokens.push({ kind: 'number', value: Number(`${match[1]}${match[2] !== undefined ? `e${match[2]}` : ''}`) });
    else if (match[3] !== undefined) tokens.push({ kind: 'name', value: match[3].toLowerCase() });
    else if (match[4] !== undefined) tokens.push({ kind: 'op', value: match[4] });
  }
  return tokens;
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    const value = this.expression();
    const extra = this.tokens[this.index];
    if (extra) throw new CalculatorError(refusal('tools.extra_token', { token: extra.value }));
    return value;
  }

  private expression(): number {
    if (++this.depth > MAX_DEPTH) throw new CalculatorError(refusal('tools.nested_too_deep'));
    let value = this.term();
    for (let op = this.peekOp(); op === '+' || op === '-'; op = this.peekOp()) {
      this.index++;
      const right = this.term();
      value = op === '+' ? value + right : value - right;
    }
    this.depth--;
    return value;
  }

  private term(): number {
    let value = this.unary();
    for (let op = this.peekOp(); op === '*' || op === '/' || op === '%'; op = this.peekOp()) {
      this.index++;
      const right = this.unary();
      if ((op === '/' || op === '%') && right === 0) throw new CalculatorError(refusal('tools.division_by_zero'));
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }

  private unary(): number {
    const op = this.peekOp();
    if (op === '+' || op === '-') {
      this.index++;
      if (++this.depth > MAX_DEPTH) throw new CalculatorError(refusal('tools.nested_too_deep'));
      const value = this.unary();
      this.depth--;
      return op === '-' ? -value : value;
    }
    return this.power();
  }

  private power(): number {
    const base = this.primary();
    if (this.peekOp() !== '^') return base;
    this.index++;
    const exponent = this.unary();
    const value = base ** exponent;
    if (Number.isNaN(value)) throw new CalculatorError(refusal('tools.negative_fractional_power'));
    return value;
  }

  private primary(): number {
    const token = this.tokens[this.index++];
    if (!token) throw new CalculatorError(refusal('tools.expression_incomplete'));
    if (token.kind === 'number') return token.value;
    if (token.kind === 'op') {
      if (token.value !== '(') throw new CalculatorError(refusal('tools.unexpected_token', { token: token.value }));
      const value = this.expression();
      this.expect(')');
      return value;
    }
    const fn = FUNCTIONS[token.value];
    if (fn) {
      this.expect('(');
      const args = [this.expression()];
      while (this.peekOp() === ',') {
        this.index++;
        args.push(this.expression());
      }
      this.expect(')');
      const [min, max] = fn.arity;
      if (args.length < min || args.length > max) throw new CalculatorError(min === max ? refusal('tools.argument_count', { name: token.value, count: min }) : refusal('tools.argument_range', { name: token.value, min, max }));
      return fn.apply(args);
    }
    const constant = CONSTANTS[token.value];
    if (constant !== undefined) return constant;
    throw new CalculatorError(refusal('tools.unknown_name', { name: token.value, available: [...Object.keys(FUNCTIONS), ...Object.keys(CONSTANTS)].join(', ') }));
  }

  private peekOp(): string | undefined {
    const token = this.tokens[this.index];
    return token?.kind === 'op' ? token.value : undefined;
  }

  private expect(op: string): void {
    const token = this.tokens[this.index];
    if (token?.kind !== 'op' || token.value !== op) throw new CalculatorError(op === ')' ? refusal('tools.missing_close') : refusal('tools.expected_after', { after: String(this.tokens[this.index - 1]?.value ?? ''), expected: op }));
    this.index++;
  }
}
