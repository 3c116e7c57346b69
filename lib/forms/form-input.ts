import type { z } from "zod";
import { formText } from "./form-state";
import { withoutControlCharacters } from "@/lib/validation/control-characters";

/**
 * FormData → the plain value a request schema (the endpoint's own zod schema) expects. A form sends
 * every field as text, so each field is read by what its schema takes:
 * - text (strings, enums, string literals): as typed, minus control characters (formText); a field
 *   with a format (e-mail, date, uuid…) is trimmed, as a browser does for `type="email"`;
 * - numbers: a plain decimal (`12`, `2500.50`) becomes a number; anything else stays text, so the
 *   schema's own "must be a number" message answers it;
 * - booleans: a checkbox, true when sent as `on` or `true` (an unticked box is not sent at all);
 * - arrays: every value sent under the name.
 * A blank field the schema may leave out becomes null (nullable) or undefined (optional or defaulted):
 * in a form, an empty input means "not given". A field the form does not send stays undefined.
 */

type Kind = "text" | "number" | "boolean" | "array" | "other";

interface FieldShape {
  kind: Kind;
  nullable: boolean;
  optional: boolean;
  /** A string format (email, date, uuid, …): trimmed before validation. */
  format: boolean;
  element?: FieldShape;
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType; options?: z.ZodType[]; values?: unknown[]; format?: string };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

const NUMBER = /^\d+(\.\d+)?$/;

/** What a field's schema takes, seen through optional, nullable, default, transforms and pipes. */
export function fieldShape(schema: z.ZodType): FieldShape {
  const shape: FieldShape = { kind: "other", nullable: false, optional: false, format: false };
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 32; depth++) {
    const def = defOf(current);
    switch (def.type) {
      case "optional":
      case "default":
      case "prefault":
        shape.optional = true;
        current = def.innerType;
        continue;
      case "nullable":
        shape.nullable = true;
        current = def.innerType;
        continue;
      case "nonoptional":
      case "readonly":
      case "catch":
        current = def.innerType;
        continue;
      case "pipe":
        current = def.in;
        continue;
      case "string":
      case "enum":
      case "template_literal":
        return { ...shape, kind: "text", format: def.type === "string" && Boolean(def.format) };
      case "number":
      case "bigint":
        return { ...shape, kind: "number" };
      case "boolean":
        return { ...shape, kind: "boolean" };
      case "literal": {
        const values = def.values ?? [];
        const kind: Kind = values.every((value) => typeof value === "boolean") ? "boolean" : values.every((value) => typeof value === "number") ? "number" : "text";
        return { ...shape, kind };
      }
      case "union": {
        // A union of texts (e.g. "" or a date) is text; of numbers, a number.
        const kinds = new Set((def.options ?? []).map((option) => fieldShape(option).kind));
        return { ...shape, kind: kinds.size === 1 ? [...kinds][0]! : "other", format: (def.options ?? []).every((option) => fieldShape(option).format) };
      }
      case "array":
        return { ...shape, kind: "array", element: def.element ? fieldShape(def.element) : undefined };
      default:
        return shape;
    }
  }
  return shape;
}

function coerceText(text: string, field: FieldShape): unknown {
  const value = field.format ? text.trim() : text;
  if (field.kind === "number") {
    const trimmed = text.trim();
    if (trimmed === "") return value;
    return NUMBER.test(trimmed) ? Number(trimmed) : trimmed;
  }
  if (field.kind === "boolean") return text === "on" || text === "true";
  return value;
}

/** One field of a form, read as its schema takes it. */
export function readField(formData: FormData, name: string, schema: z.ZodType): unknown {
  const field = fieldShape(schema);
  if (field.kind === "boolean") return coerceText(formText(formData, name), field);
  if (field.kind === "array") {
    const element = field.element ?? { kind: "text", nullable: false, optional: false, format: false };
    return formData
      .getAll(name)
      .filter((value): value is string => typeof value === "string")
      .map((value) => coerceText(withoutControlCharacters(value), element));
  }
  if (!formData.has(name) || field.kind === "other") return undefined;
  const text = formText(formData, name);
  if (text.trim() === "") {
    if (field.nullable) return null;
    if (field.optional) return undefined;
  }
  return coerceText(text, field);
}

/** The fields an object schema names, read from a form; fields the schema does not name are ignored. */
export function formInput(schema: z.ZodType, formData: FormData): Record<string, unknown> {
  const shape = objectShape(schema);
  const input: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(shape)) {
    const value = readField(formData, name, field);
    if (value !== undefined) input[name] = value;
  }
  return input;
}

/** The shape of an object schema, seen through refinements' pipes and wrappers. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 32; depth++) {
    const shape = (current as { shape?: Record<string, z.ZodType> }).shape;
    if (shape) return shape;
    const def = defOf(current);
    current = def.type === "pipe" ? def.in : def.innerType;
  }
  throw new TypeError("formInput needs an object schema.");
}
