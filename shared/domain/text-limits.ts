/**
 * Length limits of the text the service stores. "At most 255 characters" counts what
 * people call characters in the spec's sense: Unicode code points. Not graphemes: one
 * grapheme may carry any number of combining marks (`a` + 1,600 × U+0301 is one), so a
 * grapheme limit bounds nothing. Not UTF-16 code units either: an emoji or a CJK
 * extension character is one character, not two.
 *
 * A code point takes at most 4 bytes of UTF-8, so every limit in characters bounds the
 * stored size too: maxBytes(limit).
 */

/** Code points in `value`; a lone surrogate counts as one. */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** Whether `value` has more than `max` code points, without walking a string far too long. */
export function isLongerThan(value: string, max: number): boolean {
  // n UTF-16 code units hold between n/2 and n code points.
  if (value.length <= max) return false;
  if (value.length > 2 * max) return true;
  return characterCount(value) > max;
}

/** The most UTF-8 bytes a text of `characters` code points takes. */
export function maxBytes(characters: number): number {
  return characters * 4;
}

/** `<Subject> must be at most N characters` when `value` is longer, else undefined. */
export function lengthProblem(subject: string, value: string, max: number): string | undefined {
  return isLongerThan(value, max) ? `${subject} must be at most ${max} characters` : undefined;
}
