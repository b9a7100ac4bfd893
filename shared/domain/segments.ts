/**
 * SMS segment counting. A text that fits the GSM 03.38 default alphabet is sent in 7-bit
 * septets: 160 in a single message, 153 per part of a concatenated one (the user data
 * header takes the rest); characters of the extension table take two septets (escape +
 * character) and are never split across parts. Anything else goes as UCS-2: 70 code
 * units single, 67 per part, and a surrogate pair is never split.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENSION = '\f^{}\\[~]|€';

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type Encoding = 'GSM-7' | 'UCS-2';

/** The most segments one message may use; longer texts are refused, never cut. */
export const MAX_SEGMENTS = 10;

const LIMITS = {
  'GSM-7': { single: 160, part: 153 },
  'UCS-2': { single: 70, part: 67 },
} as const;

export interface SegmentInfo {
  encoding: Encoding;
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
}

export function encodingOf(text: string): Encoding {
  for (const char of text) if (!BASIC.has(char) && !EXTENSION.has(char)) return 'UCS-2';
  return 'GSM-7';
}

export function countSegments(text: string): SegmentInfo {
  const { encoding, units, partLengths } = layout(text);
  return { encoding, segments: partLengths.length, units };
}

/**
 * The text as the parts of a concatenated message, in order: one part when it fits a
 * single message, else pieces of at most 153 septets or 67 code units, never splitting an
 * escaped character or a surrogate pair. countSegments counts exactly these.
 */
export function splitSegments(text: string): string[] {
  const { partLengths } = layout(text);
  if (partLengths.length <= 1) return partLengths.length === 0 ? [] : [text];
  const chars = [...text];
  let from = 0;
  return partLengths.map((length) => {
    const part = chars.slice(from, from + length).join('');
    from += length;
    return part;
  });
}

/** The text's encoding, its units, and how many characters each part takes. */
function layout(text: string): { encoding: Encoding; units: number; partLengths: number[] } {
  const encoding = encodingOf(text);
  const sizes = [...text].map((char) => unitsOf(char, encoding));
  const units = sizes.reduce((sum, size) => sum + size, 0);
  const limits = LIMITS[encoding];
  if (units <= limits.single) return { encoding, units, partLengths: units === 0 ? [] : [sizes.length] };
  const partLengths: number[] = [];
  let inPart = 0;
  let used = 0;
  for (const size of sizes) {
    if (used + size > limits.part) {
      partLengths.push(inPart);
      inPart = 0;
      used = 0;
    }
    inPart++;
    used += size;
  }
  partLengths.push(inPart);
  return { encoding, units, partLengths };
}

/** Septets (1, or 2 for the extension table) or UTF-16 code units a character takes. */
function unitsOf(char: string, encoding: Encoding): number {
  return encoding === 'GSM-7' ? (EXTENSION.has(char) ? 2 : 1) : char.length;
}
