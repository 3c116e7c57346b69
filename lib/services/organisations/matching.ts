/**
 * How a found animal's colour or breed is compared with a lost pet's (docs/organisations.md): they must share a
 * word of at least 3 letters, case-insensitively, leaving out filler that says nothing about the animal.
 * An empty field (or one of filler only) on either side does not exclude: nothing to compare.
 */
const FILLER = new Set([
  "and",
  "with",
  "mix",
  "mixed",
  "the",
  "plus",
  "cross",
  "breed",
  "colour",
  "color",
  "coloured",
  "colored",
  "light",
  "dark",
  "und",
  "mit",
  "avec",
  "con",
]);

/** The significant words of a text, lower case. */
export function significantWords(text: string | null | undefined): Set<string> {
  const words = (text ?? "").toLocaleLowerCase("en").match(/[\p{L}\p{N}]+/gu) ?? [];
  return new Set(words.filter((word) => [...word].length >= 3 && !FILLER.has(word)));
}

/** Whether a pet's field passes the report's: the report says nothing, the pet's field is empty, or a word is shared. */
export function fieldMatches(reported: string | null | undefined, pets: string | null | undefined): boolean {
  const wanted = significantWords(reported);
  if (wanted.size === 0) return true;
  const have = significantWords(pets);
  if (have.size === 0) return true;
  for (const word of have) if (wanted.has(word)) return true;
  return false;
}
