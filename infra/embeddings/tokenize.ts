/**
 * Lower-cased word tokens: runs of letters and digits (Unicode), the way the word-vector
 * vocabulary spells most words; punctuation is dropped.
 */
export function tokenize(text: string): string[] {
  return text.toLowerCase().normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? [];
}
