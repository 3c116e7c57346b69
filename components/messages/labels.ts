/** How the inbox and a conversation name the finder: the name they gave, else anonymously. */
export function threadTitle(item: { finderName: string | null }): string {
  return item.finderName ?? "Anonymous finder";
}

/** What the conversation is about: the tag's name, unless it is unnamed or no longer the owner's. */
export function threadSubject(item: { tagName: string | null }): string {
  return item.tagName ?? "an unnamed tag, or one you no longer have";
}
