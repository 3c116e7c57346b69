/** How pages name an organisation's kind and an animal's species (the API's SHELTER, DOG, …). */
export const organisationKindLabels = { SHELTER: "Animal shelter", VET: "Vet practice", POLICE: "Police station" } as const;

export const animalLabels = { DOG: "Dog", CAT: "Cat", BIRD: "Bird", RABBIT: "Rabbit", OTHER: "Other animal" } as const;
