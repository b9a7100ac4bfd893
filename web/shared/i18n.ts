import { useEffect, useState } from 'preact/hooks';
import { EN, RU } from './strings';

/**
 * English and Russian. The first language the browser prefers that we speak, unless the
 * header's switch chose one (kept in localStorage as `lang`); `<html lang>` follows it.
 */
export type Language = 'en' | 'ru';
export const LANGUAGES: readonly Language[] = ['en', 'ru'];

type Vars = Record<string, string | number>;

let current: Language = initialLanguage();
const listeners = new Set<(language: Language) => void>();

function initialLanguage(): Language {
  const saved = globalThis.localStorage?.getItem('lang');
  if (saved === 'en' || saved === 'ru') return saved;
  for (const tag of globalThis.navigator?.languages ?? []) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'en' || base === 'ru') return base;
  }
  return 'en';
}

export function language(): Language {
  return current;
}

export function setLanguage(next: Language): void {
  current = next;
  localStorage.setItem('lang', next);
  document.documentElement.lang = next;
  for (const listener of listeners) listener(next);
}

/** The current language; the component re-renders (with its children) when the switch changes it. */
export function useLanguage(): Language {
  const [value, setValue] = useState(current);
  useEffect(() => {
    listeners.add(setValue);
    document.documentElement.lang = current;
    return () => void listeners.delete(setValue);
  }, []);
  return value;
}

/** The plural forms a string lists (`one|other` in English, `one|few|many` in Russian), in order. */
const PLURAL_FORMS: Record<Language, readonly Intl.LDMLPluralRule[]> = { en: ['one', 'other'], ru: ['one', 'few', 'many'] };

/**
 * A translator over one pair of dictionaries (the Russian one must have every English key).
 * `{name}` in a string is replaced by `vars.name`; a string with `|` lists plural forms, chosen
 * by `vars.count` (a number). Views may define their own pair.
 */
export function defineStrings<K extends string>(en: Record<K, string>, ru: Record<K, string>): (key: K, vars?: Vars) => string {
  return (key, vars) => {
    let text = (current === 'ru' ? ru : en)[key];
    if (text.includes('|') && typeof vars?.count === 'number') {
      const forms = text.split('|');
      const index = PLURAL_FORMS[current].indexOf(new Intl.PluralRules(current).select(vars.count));
      text = forms[index] ?? forms.at(-1) ?? text;
    }
    return vars
      ? text.replace(/\{(\w+)\}/g, (whole, name: string) =>
          String(name === 'count' && typeof vars.count === 'number' ? formatNumber(vars.count) : (vars[name] ?? whole)),
        )
      : text;
  };
}

export const t = defineStrings(EN, RU);

/** A number as the current language writes it (1,234 or 1 234). */
export function formatNumber(value: number): string {
  return value.toLocaleString(current === 'ru' ? 'ru-RU' : 'en-US');
}
