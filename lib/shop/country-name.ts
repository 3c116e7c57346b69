const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** A shipping country's English name ("DE" → "Germany"), as the site's order pages and invoices print it; the code when unknown. */
export function countryName(code: string): string {
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    // Not a well-formed region code (only old or hand-made rows could hold one): print it as stored.
    return code;
  }
}
