import { inflateSync } from "node:zlib";
import jsQR from "jsqr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { GET as labelRoute, POST as labelPost } from "@/app/api/v1/tags/[id]/label/route";
import { GET as sheetRoute } from "@/app/api/v1/tags/labels/sheet/route";
import { formatTagCode, foundAddress, scanUrl } from "@/lib/services/tags/codes";
import { labelWords } from "@/lib/services/tags/label-words";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { pdfFonts, pdfLines, pdfPagePng, pdfWords } from "../support/pdf";
import { giveTestTag } from "../support/tags";

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PT_PER_MM = 72 / 25.4;

type ErrorBody = { success: false; error: { code: string; details?: { issues: { field: string }[]; fieldErrors: Record<string, string[]> } } };

function label(account: TestAccount | null, tagId: string, query = "", headers?: Record<string, string>) {
  return call(labelRoute, apiRequest(`/api/v1/tags/${tagId}/label${query}`, { headers: headers ?? (account ? bearer(account.accessToken) : {}) }), { id: tagId });
}

function sheet(account: TestAccount | null, query: string) {
  return call(sheetRoute, apiRequest(`/api/v1/tags/labels/sheet${query}`, { headers: account ? bearer(account.accessToken) : {} }));
}

const idsQuery = (ids: string[]) => ids.map((id) => `tagId=${id}`).join("&");

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

/** The text of a QR code found in an image (any format sharp reads), or null. */
async function decodeQr(image: Buffer): Promise<string | null> {
  const { data, info } = await sharp(image).flatten({ background: "#ffffff" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), info.width, info.height)?.data ?? null;
}

/** Every page's MediaBox [width, height] in points, in file order. */
function mediaBoxes(pdf: Buffer): [number, number][] {
  const text = pdf.toString("latin1");
  return [...text.matchAll(/\/Type \/Page\b[^]*?\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((match) => [Number(match[1]), Number(match[2])]);
}

function pageCount(pdf: Buffer): number {
  const text = pdf.toString("latin1");
  const declared = /\/Type \/Pages[^]*?\/Count (\d+)/.exec(text);
  const pages = text.match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
  expect(Number(declared?.[1])).toBe(pages);
  return pages;
}

/** How many rectangles the content streams draw (`x y w h re`). */
function pdfRectangles(pdf: Buffer): number {
  const text = pdf.toString("latin1");
  let count = 0;
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    try {
      count += inflateSync(pdf.subarray(start, text.indexOf("endstream", start))).toString("latin1").match(/ re\b/g)?.length ?? 0;
    } catch {
      continue;
    }
  }
  return count;
}

function expectNear(actual: number, expected: number) {
  expect(Math.abs(actual - expected)).toBeLessThan(0.01);
}

describe("GET /tags/:id/label", () => {
  it("answers the label as PDF, PNG and SVG downloads named after the code and size", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Biscuit" });
    const code = formatTagCode(tag.code);
    const expected = { pdf: ["application/pdf", Buffer.from("%PDF-")], png: ["image/png", PNG_SIGNATURE], svg: ["image/svg+xml", Buffer.from("<svg")] } as const;
    for (const [format, [contentType, magic]] of Object.entries(expected)) {
      const response = await label(owner, tag.id, `?format=${format}&size=small`);
      expect(response.status, format).toBe(200);
      expect(response.headers.get("content-type")).toBe(contentType);
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="tag-${code}-label-small.${format}"`);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("x-ratelimit-limit")).toBeTruthy();
      const bytes = await bytesOf(response);
      expect(bytes.subarray(0, magic.length)).toEqual(magic);
    }
    // Defaults: a medium PDF.
    const defaults = await label(owner, tag.id);
    expect(defaults.headers.get("content-disposition")).toBe(`attachment; filename="tag-${code}-label-medium.pdf"`);
  });

  it("draws the PNG at 600 dpi for each size, and its QR code opens the tag's scan URL", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Biscuit" });
    const sizes = { small: [25, 31], medium: [38, 47], large: [50, 62] } as const;
    for (const [size, [widthMm, heightMm]] of Object.entries(sizes)) {
      const png = await bytesOf(await label(owner, tag.id, `?format=png&size=${size}`));
      const meta = await sharp(png).metadata();
      expect(meta.format).toBe("png");
      expect([meta.width, meta.height], size).toEqual([Math.round((widthMm / 25.4) * 600), Math.round((heightMm / 25.4) * 600)]);
      expect(meta.density).toBe(600);
      expect(await decodeQr(png), size).toBe(scanUrl(tag.encryptedId));
    }
    // Still readable from a coarse copy of the small label: 150 px across, about 150 dpi (under 4 px a module).
    const small = await bytesOf(await label(owner, tag.id, "?format=png&size=small"));
    expect(await decodeQr(await sharp(small).resize({ width: 150 }).png().toBuffer())).toBe(scanUrl(tag.encryptedId));
  });

  it("writes the SVG as vector with the printed code, the /found address and the item name as text", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: `Tom & "Jerry" <cat>` });
    const svg = await (await label(owner, tag.id, "?format=svg&size=large")).text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="50mm" height="62mm" viewBox="0 0 50 62">/);
    expect(svg).toContain(`>${formatTagCode(tag.code)}</text>`);
    expect(svg).toContain(`>${foundAddress()}</text>`);
    expect(svg).toContain("No camera? Type the code at");
    expect(svg).toContain(">Tom &amp; &quot;Jerry&quot; &lt;cat&gt;</text>");
    expect(svg).not.toContain("<cat>");
    expect(svg).not.toMatch(/<image|data:/);
    // The vector QR code, rasterised here, is the scan URL.
    expect(await decodeQr(await sharp(Buffer.from(svg), { density: 300 }).png().toBuffer())).toBe(scanUrl(tag.encryptedId));
  });

  it("makes the PDF one page of the label's physical size, with the call to action, code, address and name in it", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Ωmega Рюкзак" });
    const sizes = { small: [25, 31], medium: [38, 47], large: [50, 62] } as const;
    for (const [size, [widthMm, heightMm]] of Object.entries(sizes)) {
      const pdf = await bytesOf(await label(owner, tag.id, `?format=pdf&size=${size}`));
      expect(pageCount(pdf)).toBe(1);
      const [box] = mediaBoxes(pdf);
      expectNear(box![0], widthMm * PT_PER_MM);
      expectNear(box![1], heightMm * PT_PER_MM);
      // An embedded Unicode font: Greek and Cyrillic print as written (the standard fonts printed "?").
      expect(pdfLines(pdf)).toEqual(["Found me? Scan to reach my owner", formatTagCode(tag.code), "No camera? Type the code at", foundAddress(), "Ωmega Рюкзак"]);
      expect(pdfFonts(pdf).map((font) => [font.name, font.embedded, font.unicode])).toEqual(
        expect.arrayContaining([["DejaVuSans-Bold", true, true], ["DejaVuSansMono-Bold", true, true], ["DejaVuSans", true, true]]),
      );
      // The QR code as vector modules: the same runs of dark modules as the SVG's (checked by decoding above).
      const svg = await (await label(owner, tag.id, `?format=svg&size=${size}`)).text();
      const svgRuns = /<path d="([^"]*)"/.exec(svg)![1]!.match(/M/g)!.length;
      expect(pdfRectangles(pdf)).toBe(svgRuns);
    }
  });

  it("leaves out the name line of an unnamed tag", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "PENDING_SETUP" });
    const pdf = await bytesOf(await label(owner, tag.id, "?format=pdf&size=small"));
    expect(pdfLines(pdf)).toEqual(["Found me? Scan to reach my owner", formatTagCode(tag.code), "No camera? Type the code at", foundAddress()]);
  });

  it("prints the call to action above the QR code: rendered to an image, the QR decodes and the words poppler finds there are inked", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Biscuit" });
    const dpi = 600;
    for (const size of ["small", "large"] as const) {
      const pdf = await bytesOf(await label(owner, tag.id, `?format=pdf&size=${size}`));
      const png = pdfPagePng(pdf, dpi);
      // The render is the label: its QR code opens the tag.
      expect(await decodeQr(png), size).toBe(scanUrl(tag.encryptedId));
      const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
      const px = (pt: number) => Math.round((pt / 72) * dpi);
      const inked = (box: { xMin: number; yMin: number; xMax: number; yMax: number }) => {
        let dark = 0;
        for (let y = px(box.yMin); y < Math.min(info.height, px(box.yMax)); y++) for (let x = px(box.xMin); x < Math.min(info.width, px(box.xMax)); x++) if (data[y * info.width + x]! < 128) dark++;
        return dark;
      };
      const words = pdfWords(pdf);
      const callToAction = "Found me? Scan to reach my owner".split(" ");
      const found = words.slice(0, callToAction.length);
      expect(found.map((word) => word.text), size).toEqual(callToAction);
      // Every word of it is drawn (ink inside its box) and sits above the QR code's first dark row.
      // The QR code's first row is the first with a dark run as long as a finder pattern (7 modules, over a
      // tenth of the label's width); no letter is that wide.
      const longestRun = (y: number) => {
        let longest = 0;
        let run = 0;
        for (let x = 0; x < info.width; x++) {
          run = data[y * info.width + x]! < 128 ? run + 1 : 0;
          longest = Math.max(longest, run);
        }
        return longest;
      };
      let qrTop = 0;
      while (qrTop < info.height && longestRun(qrTop) < info.width * 0.1) qrTop++;
      expect(qrTop, size).toBeLessThan(info.height / 3);
      for (const word of found) {
        expect(inked(word), `${size} ${word.text}`).toBeGreaterThan(0);
        expect(px(word.yMax), `${size} ${word.text}`).toBeLessThan(qrTop);
      }
      // The /found address and the code are printed under it.
      expect(words.map((word) => word.text)).toEqual(expect.arrayContaining([formatTagCode(tag.code), foundAddress()]));
    }
  });

  it("speaks the language the owner prints in (lang), in every format; en by default, an unknown language 400", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Biscuit" });
    for (const lang of ["de", "fr", "es"] as const) {
      const words = labelWords(lang);
      expect(words.callToAction).not.toBe(labelWords("en").callToAction);
      const pdf = await bytesOf(await label(owner, tag.id, `?format=pdf&size=medium&lang=${lang}`));
      expect(pdfLines(pdf).slice(0, 3), lang).toEqual([words.callToAction, formatTagCode(tag.code), words.noCamera]);
      const svg = await (await label(owner, tag.id, `?format=svg&size=medium&lang=${lang}`)).text();
      expect(svg).toContain(`>${words.callToAction}</text>`);
      const sheetPdf = await bytesOf(await sheet(owner, `?tagId=${tag.id}&lang=${lang}`));
      expect(pdfLines(sheetPdf)[0], lang).toBe(words.callToAction);
    }
    const response = await label(owner, tag.id, "?lang=xx");
    expect(response.status).toBe(400);
    expect(Object.keys((await json<ErrorBody>(response)).error.details!.fieldErrors)).toEqual(["lang"]);
  });

  it("works with the browser's session cookie (the dashboard's download links)", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const response = await label(null, tag.id, "?format=png&size=small", { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
  });

  it("is owner only: someone else's tag, a random id and a malformed id are 404; anonymous 401; bad format or size 400; POST 405", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });

    const hidden = await label(intruder, tag.id, "?format=svg");
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get("content-type")).toContain("application/json");
    expect(hidden.headers.get("content-disposition")).toBeNull();
    const hiddenBody = await json<ErrorBody>(hidden);
    const missing = await label(owner, MISSING_ID, "?format=svg");
    expect(missing.status).toBe(404);
    // Someone else's tag reads exactly as a random id.
    expect(await json<ErrorBody>(missing)).toEqual(hiddenBody);
    expect(hiddenBody.error.code).toBe("NOT_FOUND");
    expect((await label(owner, "malformed")).status).toBe(404);

    const anonymous = await label(null, tag.id);
    expect(anonymous.status).toBe(401);
    expect((await json<ErrorBody>(anonymous)).error.code).toBe("UNAUTHORIZED");

    for (const [query, field] of [
      ["?format=gif", "format"],
      ["?size=huge", "size"],
      ["?format=PDF", "format"],
    ] as const) {
      const response = await label(owner, tag.id, query);
      expect(response.status, query).toBe(400);
      const body = await json<ErrorBody>(response);
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(Object.keys(body.error.details!.fieldErrors)).toEqual([field]);
      expect(body.error.details!.issues.map((issue) => issue.field)).toEqual([field]);
    }
    const post = await call(labelPost, apiRequest(`/api/v1/tags/${tag.id}/label`, { method: "POST", headers: bearer(owner.accessToken) }), { id: tag.id });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, OPTIONS");
  });
});

describe("GET /tags/labels/sheet", () => {
  it("lays the labels out on as many A4 or Letter pages as they need", async () => {
    const owner = await registerAccount();
    const tags = await Promise.all(["Biscuit", "Keys", "Backpack"].map((itemName) => giveTestTag(owner.id, { status: "ACTIVE", itemName })));
    const ids = tags.map((tag) => tag.id);
    const repeat = (count: number) => Array.from({ length: count }, (_, index) => ids[index % ids.length]!);
    const a4 = [210 * PT_PER_MM, 297 * PT_PER_MM];
    const letter = [612, 792];
    // Labels per page: small 48 on A4 and 42 on Letter; large 12 on A4 and 9 on Letter.
    const cases = [
      { paper: "a4", size: "small", labels: 3, pages: 1, box: a4 },
      { paper: "a4", size: "small", labels: 48, pages: 1, box: a4 },
      { paper: "a4", size: "small", labels: 49, pages: 2, box: a4 },
      { paper: "letter", size: "small", labels: 43, pages: 2, box: letter },
      { paper: "a4", size: "large", labels: 25, pages: 3, box: a4 },
      { paper: "letter", size: "large", labels: 10, pages: 2, box: letter },
      { paper: "letter", size: "medium", labels: 100, pages: 5, box: letter },
    ];
    for (const { paper, size, labels, pages, box } of cases) {
      const name = `${labels} ${size} on ${paper}`;
      const response = await sheet(owner, `?paper=${paper}&size=${size}&${idsQuery(repeat(labels))}`);
      expect(response.status, name).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toBe(`attachment; filename="tag-labels-${paper}-${size}-${labels}.pdf"`);
      const pdf = await bytesOf(response);
      expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      expect(pageCount(pdf), name).toBe(pages);
      for (const [width, height] of mediaBoxes(pdf)) {
        expectNear(width, box[0]!);
        expectNear(height, box[1]!);
      }
      // Every label is on the sheet, in the order asked.
      const codes = pdfLines(pdf).filter((text) => /^[0-9A-Z]{5}-[0-9A-Z]{5}$/.test(text));
      expect(codes, name).toEqual(repeat(labels).map((id) => formatTagCode(tags.find((tag) => tag.id === id)!.code)));
    }
  });

  it("defaults to small labels on A4 and takes a single tagId", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const response = await sheet(owner, `?tagId=${tag.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="tag-labels-a4-small-1.pdf"`);
    expect(pdfLines(await bytesOf(response)).at(-1)).toBe("Tag labels · Small 25 × 31 mm on A4 · cut along the dashed lines · page 1 of 1");
  });

  it("prints only the caller's tags: one that is not theirs fails the sheet with 404; anonymous 401", async () => {
    const owner = await registerAccount();
    const intruder = await registerAccount();
    const mine = await giveTestTag(intruder.id, { status: "ACTIVE" });
    const theirs = await giveTestTag(owner.id, { status: "ACTIVE" });

    const hidden = await sheet(intruder, `?${idsQuery([mine.id, theirs.id])}`);
    expect(hidden.status).toBe(404);
    expect(hidden.headers.get("content-disposition")).toBeNull();
    const hiddenBody = await json<ErrorBody>(hidden);
    expect(hiddenBody.error.code).toBe("NOT_FOUND");
    const missing = await sheet(intruder, `?${idsQuery([mine.id, MISSING_ID])}`);
    expect(missing.status).toBe(404);
    expect(await json<ErrorBody>(missing)).toEqual(hiddenBody);

    expect((await sheet(null, `?${idsQuery([theirs.id])}`)).status).toBe(401);
  });

  it("refuses no tags, more than 100 labels, a malformed id and an unknown paper or size (400 with the field)", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE" });
    const cases = [
      ["", "tagId"],
      ["?paper=a4", "tagId"],
      ["?tagId=", "tagId.0"],
      [`?${idsQuery(Array.from({ length: 101 }, () => tag.id))}`, "tagId"],
      [`?tagId=${tag.id}&tagId=not-a-uuid`, "tagId.1"],
      [`?tagId=${tag.id}&paper=a3`, "paper"],
      [`?tagId=${tag.id}&size=tiny`, "size"],
    ] as const;
    for (const [query, field] of cases) {
      const response = await sheet(owner, query);
      expect(response.status, query).toBe(400);
      const body = await json<ErrorBody>(response);
      expect(body.error.code).toBe("VALIDATION_ERROR");
      expect(body.error.details!.issues.map((issue) => issue.field), query).toEqual([field]);
      expect(Object.keys(body.error.details!.fieldErrors), query).toEqual([field]);
    }
    expect((await sheet(owner, `?${idsQuery(Array.from({ length: 100 }, () => tag.id))}`)).status).toBe(200);
  });
});
