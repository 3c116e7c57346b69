import { notFound } from "next/navigation";
import { z } from "zod";
import type { ErrorCode } from "@/lib/services/errors";

/**
 * How pages read their path params and query string: through the endpoint contracts' own schemas
 * (lib/http/endpoints), so a page and its API twin accept the same ids and filters. See docs/architecture.md.
 */

type ObjectSchema = z.ZodObject<z.ZodRawShape>;
type RawParams = Record<string, string | string[] | undefined>;
type Source = RawParams | ((name: string) => string | undefined);

function first(source: Source, name: string): string | undefined {
  if (typeof source === "function") return source(name);
  const value = source[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A page's path params through its endpoint's params schema: what route() answers 404 for is the 404 page
 * here (or `otherwise`, e.g. a redirect). `names` maps the endpoint's names to the page's segments where
 * they differ (`{ id: "tagId" }`).
 */
export async function pageParams<P extends ObjectSchema>(
  contract: { params?: P },
  params: RawParams | Promise<RawParams>,
  { names = {}, otherwise = notFound }: { names?: Partial<Record<keyof P["shape"] & string, string>>; otherwise?: () => never } = {},
): Promise<z.output<P>> {
  const raw = await params;
  const schema = contract.params;
  if (!schema) return otherwise();
  const renamed = names as Record<string, string>;
  const parsed = await schema.safeParseAsync(Object.fromEntries(Object.keys(schema.shape).map((key) => [key, first(raw, renamed[key] ?? key)])));
  return parsed.success ? parsed.data : otherwise();
}

type Fields = Record<string, z.core.$ZodType>;
type QueryOf<F extends Fields> = { [K in keyof F]?: z.output<F[K]> };

/**
 * A page's query string (or a form's echo of it) through an endpoint's query schema (`tagEndpoints.list`) or
 * a page's own fields (`{ status: reportStatusSchema.or(z.literal("ALL")) }`), field by field: a value the
 * schema refuses is left out, so the page shows its default view instead of an error. `names` maps the
 * schema's names to the query's where they differ (`{ tagType: "type" }`).
 */
export function pageQuery<F extends Fields>(
  fields: { query?: z.ZodObject<F> } | F,
  source: Source,
  names: Partial<Record<keyof F & string, string>> = {},
): QueryOf<F> {
  const shape: Fields = "query" in fields && fields.query && typeof fields.query === "object" && "shape" in fields.query ? (fields.query as ObjectSchema).shape : (fields as Fields);
  const renamed = names as Record<string, string>;
  const result: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape)) {
    const raw = first(source, renamed[key] ?? key);
    if (raw === undefined || raw === "") continue;
    const parsed = z.safeParse(schema, raw);
    if (parsed.success && parsed.data !== undefined) result[key] = parsed.data;
  }
  return result as QueryOf<F>;
}

/**
 * One typed map from error code to a page's notice (the `?notice=` key its page words): `errorNotice({
 * NOT_FOUND: "missing", CONFLICT: "taken" })(error)` is the notice, or undefined for an error the page does
 * not word (rethrown to the error page by rowAction).
 */
export function errorNotice<N extends string>(map: Partial<Record<ErrorCode, N>>): (error: { code: string }) => N | undefined {
  return (error) => (map as Record<string, N | undefined>)[error.code];
}
