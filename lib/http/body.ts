import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from "@/lib/services/errors";

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** Reads the raw body, refusing more than `limit` bytes whether or not Content-Length is honest. */
export async function readBodyBytes(req: Request, limit = DEFAULT_BODY_LIMIT_BYTES): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLargeError(limit);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function readBodyText(req: Request, limit = DEFAULT_BODY_LIMIT_BYTES): Promise<string> {
  return new TextDecoder("utf-8").decode(await readBodyBytes(req, limit));
}

/** `application/json` or a `+json` type, any parameters (charset). */
export function isJsonContentType(contentType: string | null): boolean {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "application/json" || (type?.startsWith("application/") === true && type.endsWith("+json"));
}

/**
 * Parses a JSON body; an empty body counts as `{}` so the schema reports the missing fields. A body in
 * any other type is refused (415) before it is read: a `text/plain` or form post is what a foreign page
 * can send without a CORS preflight, so taking it would let other sites submit JSON as our users.
 */
export async function readJsonBody(req: Request, limit = DEFAULT_BODY_LIMIT_BYTES): Promise<unknown> {
  const declaredEmpty = req.headers.get("content-length") === "0" || !req.body;
  const contentType = req.headers.get("content-type");
  if (!declaredEmpty && !isJsonContentType(contentType)) throw new UnsupportedMediaTypeError("application/json", contentType);
  const text = await readBodyText(req, limit);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError([{ field: "body", message: "The request body is not valid JSON." }], "The request body is not valid JSON.");
  }
}
