import { formText } from "./form-state";

/**
 * A number field that may be negative, as a place's coordinates are (west of Greenwich, south of the
 * equator): formInput reads only unsigned decimals, so a negative amount stays text for its schema to
 * refuse. Any finite decimal is read, with a comma as the decimal mark too; anything else stays text for the
 * schema's "Must be a number". Blank is not given (undefined).
 */
export function readSignedNumber(formData: FormData, name: string): unknown {
  const text = formText(formData, name).trim();
  if (text === "") return undefined;
  const normalized = text.replace(",", ".");
  return /^-?\d{1,9}(\.\d{1,12})?$/.test(normalized) ? Number(normalized) : text;
}
