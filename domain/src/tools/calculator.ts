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

export class CalculatorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CalculatorError';
  }
}

export const MAX_EXPRESSION_CHARS = 1_000;
const MAX_DEPTH = 100;

const FUNCTIONS: Record<string, { arity: [number, number]; apply: (args: number[]) => number }> = {
  sqrt: {
    arity: [1, 1],
    apply: ([x = 0]) => {
      if (x < 0) throw new CalculatorError('负数不能开平方');
      return Math.sqrt(x);
    },
  },
  log: {
    arity: [1, 2],
    apply: ([x = 0, base = 10]) => {
      if (x <= 0) throw new CalculatorError('对数的真数必须大于 0');
      if (base <= 0 || base === 1) throw new CalculatorError('对数的底数必须大于 0 且不等于 1');
      return Math.log(x) / Math.log(base);
    },
  },
  ln: {
    arity: [1, 1],
    apply: ([x = 0]) => {
      if (x <= 0) throw new CalculatorError('对数的真数必须大于 0');
      return Math.log(x);
    },
  },
  abs: { arity: [1, 1], apply: ([x = 0]) => Math.abs(x) },
  round: {
    arity: [1, 2],
    apply: ([x = 0, digits = 0]) => {
      if (!Number.isInteger(digits) || digits < 0 || digits > 15) throw new CalculatorError('round 的小数位数须为 0 到 15 的整数');
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
  if (expression.length > MAX_EXPRESSION_CHARS) throw new CalculatorError(`表达式过长（超过 ${MAX_EXPRESSION_CHARS} 个字符）`);
  const tokens = tokenize(normalize(expression));
  if (tokens.length === 0) throw new CalculatorError('表达式为空');
  const parser = new Parser(tokens);
  const value = parser.parse();
  if (!Number.isFinite(value)) throw new CalculatorError('结果超出可表示的范围');
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
    if (!match) throw new CalculatorError(`无法识别的字符“${Array.from(text.slice(position))[0]}”（位置 ${position + 1}）`);
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
    if (extra) throw new CalculatorError(`多余的“${extra.value}”`);
    return value;
  }

  private expression(): number {
    if (++this.depth > MAX_DEPTH) throw new CalculatorError('括号嵌套过深');
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
      if ((op === '/' || op === '%') && right === 0) throw new CalculatorError('除数不能为零');
      value = op === '*' ? value * right : op === '/' ? value / right : value % right;
    }
    return value;
  }

  private unary(): number {
    const op = this.peekOp();
    if (op === '+' || op === '-') {
      this.index++;
      if (++this.depth > MAX_DEPTH) throw new CalculatorError('括号嵌套过深');
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
    if (Number.isNaN(value)) throw new CalculatorError('负数的非整数次幂不是实数');
    return value;
  }

  private primary(): number {
    const token = this.tokens[this.index++];
    if (!token) throw new CalculatorError('表达式不完整');
    if (token.kind === 'number') return token.value;
    if (token.kind === 'op') {
      if (token.value !== '(') throw new CalculatorError(`此处不应出现“${token.value}”`);
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
      if (args.length < min || args.length > max) throw new CalculatorError(`${token.value} 需要 ${min === max ? min : `${min} 到 ${max}`} 个参数`);
      return fn.apply(args);
    }
    const constant = CONSTANTS[token.value];
    if (constant !== undefined) return constant;
    throw new CalculatorError(`未知的函数或常量“${token.value}”（可用：${[...Object.keys(FUNCTIONS), ...Object.keys(CONSTANTS)].join('、')}）`);
  }

  private peekOp(): string | undefined {
    const token = this.tokens[this.index];
    return token?.kind === 'op' ? token.value : undefined;
  }

  private expect(op: string): void {
    const token = this.tokens[this.index];
    if (token?.kind !== 'op' || token.value !== op) throw new CalculatorError(op === ')' ? '缺少右括号' : `${this.tokens[this.index - 1]?.value ?? ''} 后应为“${op}”`);
    this.index++;
  }
}
