/**
 * Unit conversion for the unit_convert tool: length, mass, time and temperature, under English
 * symbols and names and the Chinese names people write (公里, 斤, 摄氏度…), including the market
 * units (市制) 里, 丈, 尺, 寸, 斤 and 两.
 */

import { CatalogueError, refusal } from '../protocol/errors.ts';

export type Dimension = 'length' | 'mass' | 'time' | 'temperature';

/** A conversion that cannot be made, worded by the catalogue. */
export class UnitError extends CatalogueError {
  override name = 'UnitError';
}

interface Unit {
  symbol: string;
  dimension: Dimension;
  /** Base units (m, kg, s) per unit; temperatures convert through kelvin instead. */
  factor: number;
  aliases: string[];
}

const UNITS: Unit[] = [
  { symbol: 'nm', dimension: 'length', factor: 1e-9, aliases: ['nanometer', 'nanometre', '纳米'] },
  { symbol: 'μm', dimension: 'length', factor: 1e-6, aliases: ['um', 'micrometer', 'micrometre', 'micron', '微米'] },
  { symbol: 'mm', dimension: 'length', factor: 1e-3, aliases: ['millimeter', 'millimetre', '毫米'] },
  { symbol: 'cm', dimension: 'length', factor: 1e-2, aliases: ['centimeter', 'centimetre', '厘米'] },
  { symbol: 'm', dimension: 'length', factor: 1, aliases: ['meter', 'metre', '米'] },
  { symbol: 'km', dimension: 'length', factor: 1e3, aliases: ['kilometer', 'kilometre', '千米', '公里'] },
  { symbol: 'in', dimension: 'length', factor: 0.0254, aliases: ['inch', 'inches', '英寸'] },
  { symbol: 'ft', dimension: 'length', factor: 0.3048, aliases: ['foot', 'feet', '英尺'] },
  { symbol: 'yd', dimension: 'length', factor: 0.9144, aliases: ['yard', '码'] },
  { symbol: 'mi', dimension: 'length', factor: 1609.344, aliases: ['mile', '英里'] },
  { symbol: 'nmi', dimension: 'length', factor: 1852, aliases: ['nautical mile', '海里'] },
  { symbol: '寸', dimension: 'length', factor: 1 / 30, aliases: ['市寸'] },
  { symbol: '尺', dimension: 'length', factor: 1 / 3, aliases: ['市尺'] },
  { symbol: '丈', dimension: 'length', factor: 10 / 3, aliases: [] },
  { symbol: '里', dimension: 'length', factor: 500, aliases: ['市里'] },

  { symbol: 'mg', dimension: 'mass', factor: 1e-6, aliases: ['milligram', '毫克'] },
  { symbol: 'g', dimension: 'mass', factor: 1e-3, aliases: ['gram', 'gramme', '克'] },
  { symbol: 'kg', dimension: 'mass', factor: 1, aliases: ['kilogram', 'kilogramme', '千克', '公斤'] },
  { symbol: 't', dimension: 'mass', factor: 1e3, aliases: ['tonne', 'metric ton', '吨'] },
  { symbol: 'oz', dimension: 'mass', factor: 0.028349523125, aliases: ['ounce', '盎司'] },
  { symbol: 'lb', dimension: 'mass', factor: 0.45359237, aliases: ['lbs', 'pound', '磅'] },
  { symbol: '两', dimension: 'mass', factor: 0.05, aliases: ['市两'] },
  { symbol: '斤', dimension: 'mass', factor: 0.5, aliases: ['市斤', 'jin'] },

  { symbol: 'ms', dimension: 'time', factor: 1e-3, aliases: ['millisecond', '毫秒'] },
  { symbol: 's', dimension: 'time', factor: 1, aliases: ['sec', 'second', '秒', '秒钟'] },
  { symbol: 'min', dimension: 'time', factor: 60, aliases: ['minute', '分钟', '分'] },
  { symbol: 'h', dimension: 'time', factor: 3600, aliases: ['hr', 'hour', '小时', '时'] },
  { symbol: 'd', dimension: 'time', factor: 86_400, aliases: ['day', '天', '日'] },
  { symbol: 'week', dimension: 'time', factor: 604_800, aliases: ['wk', '周', '星期'] },

  { symbol: '°C', dimension: 'temperature', factor: 1, aliases: ['c', '℃', 'celsius', '摄氏度', '摄氏'] },
  { symbol: '°F', dimension: 'temperature', factor: 1, aliases: ['f', '℉', 'fahrenheit', '华氏度', '华氏'] },
  { symbol: 'K', dimension: 'temperature', factor: 1, aliases: ['k', 'kelvin', '开尔文', '开'] },
];

const byName = new Map<string, Unit>();
for (const unit of UNITS) {
  for (const name of [unit.symbol, ...unit.aliases]) byName.set(key(name), unit);
}

function key(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

function unitOf(name: string): Unit {
  const lookup = key(name);
  // English plurals ("meters", "hours") are found by dropping the s.
  const unit = byName.get(lookup) ?? (lookup.endsWith('s') ? byName.get(lookup.slice(0, -1)) : undefined);
  if (!unit) throw new UnitError(refusal('tools.unknown_unit', { unit: name }));
  return unit;
}

export interface Conversion {
  value: number;
  from: string;
  to: string;
  dimension: Dimension;
}

/** `value` in `from` expressed in `to`, rounded to 12 significant digits. */
export function convert(value: number, from: string, to: string): Conversion {
  const source = unitOf(from);
  const target = unitOf(to);
  if (source.dimension !== target.dimension) throw new UnitError(refusal('tools.incompatible_units', { fromDimension: source.dimension, from, toDimension: target.dimension, to }));
  const result = source.dimension === 'temperature' ? fromKelvin(toKelvin(value, source.symbol), target.symbol) : (value * source.factor) / target.factor;
  return { value: Number(result.toPrecision(12)), from: source.symbol, to: target.symbol, dimension: source.dimension };
}

function toKelvin(value: number, symbol: string): number {
  const kelvin = symbol === '°C' ? value + 273.15 : symbol === '°F' ? ((value - 32) * 5) / 9 + 273.15 : value;
  if (kelvin < 0) throw new UnitError(refusal('tools.below_absolute_zero'));
  return kelvin;
}

function fromKelvin(kelvin: number, symbol: string): number {
  return symbol === '°C' ? kelvin - 273.15 : symbol === '°F' ? ((kelvin - 273.15) * 9) / 5 + 32 : kelvin;
}

/** The units by dimension, for the tool's description. */
export function unitList(): Record<Dimension, string[]> {
  const list: Record<Dimension, string[]> = { length: [], mass: [], time: [], temperature: [] };
  for (const unit of UNITS) list[unit.dimension].push(unit.symbol);
  return list;
}
