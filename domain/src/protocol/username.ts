/**
 * How user names compare. A name is stored in NFKC form, so full-width and other compatibility
 * spellings are the same name; two names whose skeletons match look alike and cannot both exist.
 */

/** Control, format (bidi overrides, zero-width joiners), lone surrogate, private-use and unassigned characters. */
const INVISIBLE_OR_BROKEN = /\p{C}/u;

export const hasForbiddenCharacters = (name: string): boolean => INVISIBLE_OR_BROKEN.test(name);

export const normaliseUsername = (name: string): string => name.trim().normalize('NFKC');

// Letters of other scripts (and digits) that render like a Latin letter, after lower-casing; a
// small subset of Unicode's confusables list, covering what look-alike sign-ups use in practice.
const LOOK_ALIKES: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', һ: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ү: 'y',
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ϲ: 'c', ɡ: 'g', ı: 'i', ȷ: 'j',
  '0': 'o', '1': 'l', '|': 'l', '5': 's', rn: 'm', vv: 'w',
};
const LOOK_ALIKE = new RegExp(
  Object.keys(LOOK_ALIKES)
    .sort((a, b) => b.length - a.length)
    .map((key) => key.replace(/[|\\^$.*+?()[\]{}]/g, '\\$&'))
    .join('|'),
  'gu',
);

/** The form two look-alike names share: case, accents and cross-script look-alikes folded away. */
export function usernameSkeleton(name: string): string {
  return normaliseUsername(name)
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(LOOK_ALIKE, (match) => LOOK_ALIKES[match]!);
}
