import test from 'ava';
import { cardText } from './cardText.ts';

test('escaped Markdown and leading list markers are gone from card text', (t) => {
  t.is(cardText('\\*\\*重点\\*\\*：钠离子电池在零下二十度仍能正常放电。'), '**重点**：钠离子电池在零下二十度仍能正常放电。');
  t.is(cardText('\\- 钠离子电池的成本更低'), '钠离子电池的成本更低');
  t.is(cardText('1. - 见\\[报告\\](https://example.com/r)'), '见[报告](https://example.com/r)');
  t.is(cardText('\\# 储能电站'), '储能电站');
});

test('text without markup is left alone', (t) => {
  t.is(cardText('Costs fell 30% in 2024; C:\\data stays.'), 'Costs fell 30% in 2024; C:\\data stays.');
  t.is(cardText('2024 年装机翻倍'), '2024 年装机翻倍');
});
