import test from 'ava';
import { convert, UnitError } from './units.ts';

test('length, including Chinese names and market units', (t) => {
  t.like(convert(1, 'km', 'm'), { value: 1000, from: 'km', to: 'm', dimension: 'length' });
  t.is(convert(1, '英里', '公里').value, 1.609344);
  t.is(convert(12, 'inches', 'ft').value, 1);
  t.is(convert(1, '米', '尺').value, 3);
  t.is(convert(2, '里', '公里').value, 1);
  t.is(convert(5, 'Meters', 'CM').value, 500);
});

test('mass', (t) => {
  t.is(convert(1, '斤', 'kg').value, 0.5);
  t.is(convert(1, '斤', '两').value, 10);
  t.is(convert(1, 'lb', 'g').value, 453.59237);
  t.is(convert(2, 't', '公斤').value, 2000);
});

test('time', (t) => {
  t.is(convert(90, 'min', 'h').value, 1.5);
  t.is(convert(2, 'weeks', '天').value, 14);
  t.is(convert(1, '小时', '秒').value, 3600);
  t.is(convert(250, 'ms', 's').value, 0.25);
});

test('temperature goes through kelvin and refuses values below absolute zero', (t) => {
  t.like(convert(100, '摄氏度', '°F'), { value: 212, from: '°C', to: '°F' });
  t.is(convert(32, 'F', 'C').value, 0);
  t.is(convert(0, 'K', '℃').value, -273.15);
  t.is(convert(-40, 'celsius', 'fahrenheit').value, -40);
  t.throws(() => convert(-300, 'C', 'K'), { instanceOf: UnitError, message: '温度不能低于绝对零度' });
});

test('unknown units and mixed dimensions are refused with the names used', (t) => {
  t.throws(() => convert(1, 'furlong', 'm'), { instanceOf: UnitError, message: '不认识的单位“furlong”' });
  t.throws(() => convert(1, 'kg', 'm'), { instanceOf: UnitError, message: '无法把质量单位“kg”换算成长度单位“m”' });
});
