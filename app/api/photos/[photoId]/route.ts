import { isDatabaseUnavailable } from "@/lib/http/errors";
import { describeError, log } from "@/lib/log";
import { systemContext } from "@/lib/services/context";
import { getStoredPhoto } from "@/lib/services/profiles";

type Context = { params: Promise<{ photoId: string }> };

const plain = (status: number, text: string) => new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

/**
 * A profile photo's bytes, as re-encoded at upload. A photo id's content never changes (a new upload
 * gets a new id), so the answer is cacheable for good and its ETag is the id.
 */
export async function GET(req: Request, context: Context): Promise<Response> {
  const { photoId } = await context.params;
  try {
    const photo = await getStoredPhoto(systemContext(), photoId);
    if (!photo) return plain(404, "Not found");
    const etag = `"${photo.id}"`;
    const headers = {
      "Content-Type": photo.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: etag,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'",
    };
    const ifNoneMatch = req.headers.get("if-none-match");
    if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === etag || tag.trim() === `W/${etag}` || tag.trim() === "*")) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(new Uint8Array(photo.data), { status: 200, headers: { ...headers, "Content-Length": String(photo.data.length) } });
  } catch (error) {
    if (isDatabaseUnavailable(error)) return plain(503, "Service unavailable");
    log.error("photo serving failed", describeError(error));
    return plain(500, "Internal error");
  }
}
