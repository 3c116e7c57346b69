import { aboutDistance } from "./places";
import type { PetSpecies } from "./species";

/** The word a notification uses for a species ("Lost dog near you"). */
const SPECIES_WORD: Record<PetSpecies, string> = { DOG: "dog", CAT: "cat", BIRD: "bird", RABBIT: "rabbit", OTHER: "pet" };

export function speciesWord(species: PetSpecies): string {
  return SPECIES_WORD[species];
}

/** "20 minutes ago", "1 hour ago", "3 days ago"; "just now" under a minute. */
export function timeAgo(then: Date, now: Date): string {
  const minutes = Math.floor(Math.max(0, now.getTime() - then.getTime()) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return minutes === 1 ? "1 minute ago" : `${minutes} minutes ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return hours === 1 ? "1 hour ago" : `${hours} hours ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a");

/** "a brown Labrador (dog)", "a brown dog", "a Labrador (dog)", "a dog". */
export function petDescription(pet: { species: PetSpecies; breed: string | null; color: string | null }): string {
  const kind = speciesWord(pet.species);
  const words = [pet.color, pet.breed ?? kind].filter((word): word is string => Boolean(word)).join(" ");
  return `${article(words)} ${words}${pet.breed ? ` (${kind})` : ""}`;
}

export interface LostPetNotice {
  petName: string | null;
  species: PetSpecies;
  breed: string | null;
  color: string | null;
  distanceM: number;
  lastSeenAt: Date;
}

/**
 * LOST_PET_NEARBY's words: "Lost dog near you: Bella" and "Bella, a brown Labrador (dog), was last seen
 * about 1.2 km from your home, 20 minutes ago." The distance is rounded (places.ts), never precise.
 */
export function lostPetNearbyText(notice: LostPetNotice, now: Date): { title: string; body: string } {
  const kind = speciesWord(notice.species);
  const name = notice.petName ?? `A ${kind}`;
  const title = notice.petName ? `Lost ${kind} near you: ${notice.petName}` : `Lost ${kind} near you`;
  const who = notice.petName ? `${name}, ${petDescription(notice)},` : `${capitalise(petDescription(notice))}`;
  const body = `${who} was last seen ${aboutDistance(notice.distanceM)} from your home, ${timeAgo(notice.lastSeenAt, now)}.`;
  return { title, body };
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
