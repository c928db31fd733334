import * as stopword from 'stopword';

/** ISO 639-1 locale prefixes to the `stopword` package's ISO 639-3 list names. */
const LISTS: Readonly<Record<string, readonly string[]>> = {
  en: stopword.eng, de: stopword.deu, fr: stopword.fra, es: stopword.spa, it: stopword.ita, nl: stopword.nld, pt: stopword.por,
  sv: stopword.swe, da: stopword.dan, nb: stopword.nob, no: stopword.nob, fi: stopword.fin, pl: stopword.pol, cs: stopword.ces,
  sk: stopword.slk, ru: stopword.rus, uk: stopword.ukr, tr: stopword.tur, el: stopword.ell, hu: stopword.hun, ro: stopword.ron,
};

/**
 * The words of a `find_text` query worth matching: stop words of the search locale (English when
 * none is named) are dropped, unless nothing else is left (docs/decisions/0053).
 */
export function meaningfulWords(words: readonly string[], locale: string | null): readonly string[] {
  const code = (locale ?? 'en').split('_')[0]!.toLowerCase();
  const kept = stopword.removeStopwords(words, LISTS[code] ?? stopword.eng);
  return kept.length > 0 ? kept : words;
}
