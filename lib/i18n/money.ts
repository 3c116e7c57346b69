/**
 * An amount in major units with its ISO 4217 currency, as the locale writes it ("$50.00", "CA$50.00",
 * "50,00 €"). A code Intl does not know (any three letters pass validation) falls back to "50 XYZ".
 */
export function formatMoney(amount: number, currency: string, locale = "en-US"): string {
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency, currencyDisplay: "symbol" }).format(amount);
  } catch {
    return `${new Intl.NumberFormat(locale).format(amount)} ${currency}`;
  }
}
