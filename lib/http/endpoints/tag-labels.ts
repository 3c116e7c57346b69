import { labelQuery, labelSheetQuery } from "@/lib/services/tags";
import { defineEndpoint } from "../endpoint";
import { idParams } from "../params";

const tags = ["Tags"];

/** Printable labels as downloads: one tag's label in three formats and sizes, and sticker sheets of many. */
export const tagLabelEndpoints = {
  label: defineEndpoint({
    operationId: "downloadTagLabel",
    method: "GET",
    path: "/api/v1/tags/{id}/label",
    summary: "Download the tag's printable label",
    description:
      "The whole label — a call to action for the finder above the QR code of the scan URL, the printed code, the `/found` address for a finder without a camera, the item name — as a download " +
      "(`Content-Disposition: attachment`), not JSON. `format`: `pdf` (the default; one vector page the label's size), `png` (600 dpi, white background) or `svg` " +
      "(vector, text as text). `size`: `small` 25 × 31 mm, `medium` (the default) 38 × 47 mm, `large` 50 × 62 mm. `lang`: the language of the finder's words " +
      "(\"Found me? Scan to reach my owner\" and the no-camera line): `en` (the default), `de`, `fr` or `es`. The PDF embeds a Unicode font, so item names print as written. Errors answer the JSON envelope.",
    tags,
    auth: "user",
    params: idParams,
    query: labelQuery,
    responseKind: "file",
    mediaTypes: ["application/pdf", "image/png", "image/svg+xml"],
  }),
  sheet: defineEndpoint({
    operationId: "downloadLabelSheet",
    method: "GET",
    path: "/api/v1/tags/labels/sheet",
    summary: "Download a sticker sheet of several tags' labels (PDF)",
    description:
      "A PDF on A4 or US Letter with as many labels of one size per page as fit inside 10 mm margins, 4 mm apart, each inside a dashed cut line; " +
      "as many pages as needed. Name each tag with its own `tagId` parameter (`?tagId=…&tagId=…&paper=a4&size=small`, 1 to 100; " +
      "a repeated id prints that label again). `lang` as for one label. Per page: small 48 (A4) / 42 (Letter), medium 20 / 20, large 12 / 9. A tag that is not yours is `404 NOT_FOUND`, as for an unknown id.",
    tags,
    auth: "user",
    query: labelSheetQuery,
    responseKind: "file",
    mediaTypes: ["application/pdf"],
  }),
};
