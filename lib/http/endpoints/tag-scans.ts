import { z } from "zod";
import { scanRecordSchema } from "@/lib/services/tags";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams } from "../params";

const tags = ["Tags"];

/** A tag's scan history and its QR code. */
export const tagScanEndpoints = {
  listScans: defineEndpoint({
    operationId: "listTagScans",
    method: "GET",
    path: "/api/v1/tags/{id}/scans",
    summary: "A tag's scans, newest first",
    tags,
    auth: "user",
    params: idParams,
    query: cursorPaginationQuery,
    response: scanRecordSchema,
    responseKind: "paginated",
  }),
  qrCode: defineEndpoint({
    operationId: "getTagQrCode",
    method: "GET",
    path: "/api/v1/tags/{id}/qr",
    summary: "The tag's scan URL as a QR code image",
    description: "Answers the image itself, not JSON: `image/svg+xml` (format=svg) or `image/png` (format=png, the default).",
    tags,
    auth: "user",
    params: idParams,
    query: z.object({ format: z.enum(["svg", "png"]).default("png") }),
    responseKind: "image",
  }),
};
