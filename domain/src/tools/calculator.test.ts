import test from 'ava';
import { CalculatorError, evaluate, MAX_EXPRESSION_CHARS } from './calculator.ts';

const cases: Array<[string, number]> = [
  ['1 + 2 * 3', 7],
  ['(1 + 2) * 3', 9],
  ['10 / 4', 2.5],
  ['10 % 4', 2],
  ['2 ^ 10', 1024],
  ['2 ^ 3 ^ 2', 512],
  ['-2 ^ 2', -4],
  ['2 ^ -1', 0.5],
  ['--3', 3],
  ['+3 - -3', 6],
  ['0.1 + 0.2', 0.3],
  ['.5 * 4', 2],
  ['1.5e3 + 1', 1501],
  ['2 ** 3', 8],
  ['sqrt(16) + abs(-3)', 7],
  ['log(1000)', 3],
  ['log(8, 2)', 3],
  ['ln(e)', 1],
  ['round(2.5)', 3],
  ['round(-2.5)', -3],
  ['round(3.14159, 2)', 3.14],
  ['round(pi, 4)', 3.1416],
  ['SQRT(9)', 3],
  ['（１＋２）×３÷２', 4.5],
  ['7 - 2 - 1', 4],
  ['2 * (3 + (4 - 1)) / 3', 4],
];

for (const [expression, expected] of cases) {
  test(`${expression} = ${expected}`, (t) => {
    t.is(evaluate(expression), expected);
  });
}

const errors: Array<[string, string]> = [
  ['', '表达式为空'],
  ['   ', '表达式为空'],
  ['1 / 0', '除数不能为零'],
  ['5 % 0', '除数不能为零'],
  ['sqrt(-1)', '负数不能开平方'],
  ['ln(0)', '对数的真数必须大于 0'],
  ['log(8, 1)', '底数'],
  ['(-8) ^ 0.5', '不是实数'],
  ['(1 + 2', '缺少右括号'],
  ['1 + 2)', '多余的'],
  ['1 +', '表达式不完整'],
  ['* 2', '此处不应出现'],
  ['foo(1)', '未知的函数或常量'],
  ['process.exit(1)', '无法识别的字符'],
  ['1; 2', '无法识别的字符'],
  ['sqrt(1, 2)', '需要 1 个参数'],
  ['round(1, 0.5)', '小数位数'],
  ['10 ^ 400', '超出可表示的范围'],
  ['sqrt 4', '应为“(”'],
];

for (const [expression, message] of errors) {
  test(`${JSON.stringify(expression)} is refused: ${message}`, (t) => {
    const error = t.throws(() => evaluate(expression), { instanceOf: CalculatorError });
    t.true(error?.message.includes(message), error?.message);
  });
}

test('deep nesting and long input are refused, not overflowed', (t) => {
  t.throws(() => evaluate(`${'('.repeat(150)}1${')'.repeat(150)}`), { instanceOf: CalculatorError, message: '括号嵌套过深' });
  t.throws(() => evaluate('1+'.repeat(MAX_EXPRESSION_CHARS)), { instanceOf: CalculatorError, message: /表达式过长/ });
  t.is(evaluate(`${'('.repeat(50)}1${')'.repeat(50)}`), 1);
});
