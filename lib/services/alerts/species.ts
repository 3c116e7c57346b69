import { z } from "zod";

/** The kinds of pet alerts match on (the `pet_species` enum). */
export const PET_SPECIES = ["DOG", "CAT", "BIRD", "RABBIT", "OTHER"] as const;
export type PetSpecies = (typeof PET_SPECIES)[number];

export const petSpeciesSchema = z.enum(PET_SPECIES, "One of DOG, CAT, BIRD, RABBIT, OTHER.");

/**
 * A profile's free-text species read as one of PET_SPECIES, case-insensitively, in the four languages the
 * finder pages speak; anything unknown is OTHER (docs/alerts.md).
 */
const WORDS: Record<Exclude<PetSpecies, "OTHER">, readonly string[]> = {
  DOG: ["dog", "puppy", "hund", "welpe", "chien", "chiot", "perro", "cachorro"],
  CAT: ["cat", "kitten", "katze", "kater", "kätzchen", "chat", "chaton", "gato", "gatito"],
  BIRD: ["bird", "parrot", "budgie", "parakeet", "vogel", "papagei", "wellensittich", "oiseau", "perroquet", "perruche", "pájaro", "pajaro", "ave", "loro", "periquito"],
  RABBIT: ["rabbit", "bunny", "kaninchen", "hase", "lapin", "conejo"],
};

export function speciesOf(text: string | null | undefined): PetSpecies {
  const normalized = (text ?? "").trim().toLocaleLowerCase("en");
  if (!normalized) return "OTHER";
  const upper = normalized.toUpperCase();
  if ((PET_SPECIES as readonly string[]).includes(upper)) return upper as PetSpecies;
  for (const [species, words] of Object.entries(WORDS) as [PetSpecies, readonly string[]][]) {
    if (words.includes(normalized)) return species;
  }
  return "OTHER";
}
