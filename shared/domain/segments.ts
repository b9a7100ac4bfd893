/**
 * SMS segment counting. A text that fits the GSM 03.38 default alphabet is sent in 7-bit
 * septets: 160 in a single message, 153 per part of a concatenated one (the user data
 * header takes the rest); characters of the extension table take two septets (escape +
 * character) and are never split across parts. Anything else goes as UCS-2: 70 code
 * units single, 67 per part, and a surrogate pair is never split.
 */

const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
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
  const encoding = encodingOf(text);
  // Units each character takes, in order: 1 or 2 septets, or 1 or 2 UTF-16 code units.
  const sizes = [...text].map((char) => (encoding === 'GSM-7' ? (EXTENSION.has(char) ? 2 : 1) : char.length));
  const units = sizes.reduce((sum, size) => sum + size, 0);
  const limits = LIMITS[encoding];
  if (units <= limits.single) return { encoding, segments: units === 0 ? 0 : 1, units };
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > limits.part) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return { encoding, segments, units };
}
