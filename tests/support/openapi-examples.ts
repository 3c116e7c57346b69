import { randomUUID } from "node:crypto";
import type { Endpoint } from "@/lib/http";

/**
 * A valid JSON body for an operation, built from its request schema in the OpenAPI document (the
 * schemas' own `example` metadata first, then what the JSON Schema allows), and checked against the
 * endpoint's zod schema, so a hostile value put into one field of it reaches past validation of the
 * others (into the service and the database). Used by the hostile-input sweep.
 */

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
};

export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, unknown>; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> } & Record<string, Record<string, unknown> | undefined>;
}

/**
 * The object a `$ref` points to (`#/components/responses/NotFound`), followed until it is no reference;
 * anything else as it is. Error responses, shared parameters and most schemas are references.
 */
export function deref<T>(doc: { components?: Record<string, Record<string, unknown> | undefined> }, value: T): T {
  let current: unknown = value;
  for (let depth = 0; depth < 16; depth++) {
    const ref = (current as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== "string") break;
    const [, , kind, name] = ref.split("/");
    current = doc.components?.[kind!]?.[name!];
  }
  return current as T;
}

function resolve(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  return deref(doc, schema) ?? {};
}

function typesOf(schema: JsonSchema): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

const FUTURE = new Date(Date.now() + 90 * 86_400_000);

function stringExample(schema: JsonSchema): string {
  switch (schema.format) {
    case "email":
      return `sweep-${randomUUID().slice(0, 8)}@example.com`;
    case "uuid":
      return randomUUID();
    case "date-time":
      return FUTURE.toISOString();
    case "date":
      return FUTURE.toISOString().slice(0, 10);
    case "time":
      return "12:00";
    case "uri":
    case "url":
      return "https://example.com/sweep";
  }
  const length = Math.max(schema.minLength ?? 1, Math.min(schema.maxLength ?? 12, 12));
  return "Sweeptext".padEnd(length, "x").slice(0, Math.max(length, 1));
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const high = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  let value = low ?? (high !== undefined ? Math.min(1, high) : 1);
  if (low !== undefined && value < low) value = low;
  return integer ? Math.ceil(value) : value;
}

/** One value the schema accepts; `required` only: leave out optional object properties. */
export function exampleOf(doc: OpenApiDocument, raw: JsonSchema, options: { requiredOnly?: boolean } = {}, depth = 0): unknown {
  const schema = resolve(doc, raw);
  if (depth > 12) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) {
    const option = choices.find((choice) => !typesOf(resolve(doc, choice)).includes("null")) ?? choices[0]!;
    return exampleOf(doc, option, options, depth + 1);
  }
  if (schema.allOf?.length) {
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(doc, part, options, depth + 1) as object));
  }
  const types = typesOf(schema).filter((type) => type !== "null");
  const type = types[0] ?? (schema.properties ? "object" : undefined);
  switch (type) {
    case "object": {
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        if (options.requiredOnly && !schema.required?.includes(name)) continue;
        const value = exampleOf(doc, property, options, depth + 1);
        if (value !== undefined) result[name] = value;
      }
      return result;
    }
    case "array": {
      if (schema.prefixItems) return schema.prefixItems.map((item) => exampleOf(doc, item, options, depth + 1));
      const item = schema.items ? exampleOf(doc, schema.items, options, depth + 1) : "x";
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => structuredClone(item));
    }
    case "string":
      return stringExample(schema);
    case "integer":
      return numberExample(schema, true);
    case "number":
      return numberExample(schema, false);
    case "boolean":
      return false;
    default:
      return types.length ? null : "x";
  }
}

/** Dotted paths to every object property and array item of a value, outermost first (`items`, `items.0`, `items.0.productId`). */
export function valuePaths(value: unknown, prefix: string[] = []): string[][] {
  const paths: string[][] = [];
  if (Array.isArray(value)) {
    value.slice(0, 1).forEach((item, index) => {
      const path = [...prefix, String(index)];
      paths.push(path, ...valuePaths(item, path));
    });
  } else if (value && typeof value === "object") {
    for (const [name, item] of Object.entries(value)) {
      const path = [...prefix, name];
      paths.push(path, ...valuePaths(item, path));
    }
  }
  return paths;
}

/** A copy of `value` with the thing at `path` replaced. */
export function withValueAt(value: unknown, path: string[], replacement: unknown): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  let holder: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
  holder[path.at(-1)!] = replacement;
  return copy;
}

export type ExampleResult = { ok: true; body: unknown; source: string } | { ok: false; reason: string };

/**
 * A valid body for `endpoint`: `fallback` when given (for schemas whose rules the JSON Schema cannot
 * express: cross-field refinements, transforms), else the example built from the document (all
 * properties, then the required ones only), whichever the endpoint's own zod schema accepts first.
 */
export function exampleBody(doc: OpenApiDocument, endpoint: Endpoint, fallback?: unknown): ExampleResult {
  const schema = endpoint.body;
  if (!schema) return { ok: false, reason: "no JSON body" };
  const requestSchema = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()]?.requestBody?.content?.["application/json"]?.schema;
  const candidates: [string, unknown][] = [];
  if (fallback !== undefined) candidates.push(["table", fallback]);
  if (requestSchema) {
    candidates.push(["document", exampleOf(doc, requestSchema)], ["document (required only)", exampleOf(doc, requestSchema, { requiredOnly: true })]);
  }
  const failures: string[] = [];
  for (const [source, body] of candidates) {
    const parsed = schema.safeParse(body);
    if (parsed.success) return { ok: true, body, source };
    failures.push(`${source}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`).join("; ")} in ${JSON.stringify(body).slice(0, 300)}`);
  }
  return { ok: false, reason: failures.join(" | ") || "no request schema in the document" };
}
