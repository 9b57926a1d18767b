// Text limits count what a reader sees as one character: an emoji with skin tone or a letter with a
// combining accent is one grapheme, though it is several UTF-16 code units.
const segmenter =
  typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('en', { granularity: 'grapheme' }) : null;

export function graphemes(text: string): string[] {
  if (!segmenter) return Array.from(text);
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

export function graphemeLength(text: string): number {
  return graphemes(text).length;
}
