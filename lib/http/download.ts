/**
 * A file answered as a download, outside the JSON envelope: the browser saves it under `filename`
 * (plain ASCII from our own codes and names, so no RFC 5987 encoding is needed) instead of showing it.
 */
export function downloadResponse(file: { contentType: string; body: string | Uint8Array; filename: string }): Response {
  return new Response(file.body as BodyInit, {
    status: 200,
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
