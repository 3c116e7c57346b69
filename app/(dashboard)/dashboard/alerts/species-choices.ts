/** The watch area's species choice ("" is every kind) and how pages name a pet's kind. */
export const SPECIES_CHOICES = [
  { value: "", label: "All pets" },
  { value: "DOG", label: "Dogs" },
  { value: "CAT", label: "Cats" },
  { value: "BIRD", label: "Birds" },
  { value: "RABBIT", label: "Rabbits" },
  { value: "OTHER", label: "Other pets" },
] as const;

export const speciesLabel = { DOG: "Dog", CAT: "Cat", BIRD: "Bird", RABBIT: "Rabbit", OTHER: "Pet" } as const;
