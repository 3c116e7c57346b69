/**
 * Up to two letters for the avatar: the first letter of the first and last names, else of the e-mail
 * address. Whole characters (an emoji or an accented letter made of two code points stays whole).
 */
export function initials({ firstName, lastName, email }: { firstName?: string | null; lastName?: string | null; email: string }): string {
  const letters = [firstName, lastName].map((name) => firstCharacter(name ?? "")).filter(Boolean);
  const chosen = letters.length > 0 ? letters.join("") : firstCharacter(email);
  return chosen.toLocaleUpperCase() || "?";
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function firstCharacter(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return "";
  for (const { segment } of segmenter.segment(trimmed)) return segment;
  return "";
}
