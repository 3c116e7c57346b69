import sharp from "sharp";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as getProfileRoute } from "@/app/api/v1/profiles/[tagId]/route";
import { POST as uploadRoute, DELETE as deleteByQueryRoute, GET as photosGet } from "@/app/api/v1/profiles/[tagId]/photos/route";
import { DELETE as deletePhotoRoute, PATCH as patchPhotoRoute } from "@/app/api/v1/profiles/[tagId]/photos/[photoId]/route";
import { GET as servePhoto } from "@/app/api/photos/[photoId]/route";
import { eq } from "drizzle-orm";
import { getDatabase, schema } from "@/db/client";
import { bearer, registerAccount, type TestAccount } from "../support/auth";
import { apiRequest, call, json } from "../support/http";
import { claimTestTag, setTier } from "../support/tags";

type Photo = { id: string; url: string; isPrimary: boolean };
type Envelope<T = Record<string, unknown>> = { success: boolean; data: T; error?: { code: string; message: string; details?: { fieldErrors: Record<string, string[]> } } };

const MISSING_ID = "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11";
const MB = 1024 * 1024;

async function jpegWithGpsAndOrientation(): Promise<Buffer> {
  // 60×30 landscape, EXIF orientation 6 (rotate 90° clockwise to display), camera make and a GPS position.
  return sharp({ create: { width: 60, height: 30, channels: 3, background: "#c33" } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "TestCam", Model: "Spy 3000", Copyright: "Ada" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2400/100", GPSLongitudeRef: "E", GPSLongitude: "2/1 21/1 300/100" },
    })
    .toBuffer();
}

const png = (size = 16) => sharp({ create: { width: size, height: size, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } }).png().toBuffer();
const webp = () => sharp({ create: { width: 20, height: 10, channels: 3, background: "#0a0" } }).webp().toBuffer();

function form(file: Buffer | string | null, options: { name?: string; type?: string; isPrimary?: string } = {}): FormData {
  const data = new FormData();
  if (file !== null) {
    if (typeof file === "string" && !options.name) data.append("file", file);
    else data.append("file", new Blob([typeof file === "string" ? file : new Uint8Array(file)], { type: options.type ?? "application/octet-stream" }), options.name ?? "photo.bin");
  }
  if (options.isPrimary !== undefined) data.append("isPrimary", options.isPrimary);
  return data;
}

/**
 * Posts the upload. A form goes as its encoded bytes with its multipart type, as a client's request
 * arrives over HTTP: a Request built on a FormData has undici encode it in the background, and when the
 * route stops reading at its limit (the 413 below) undici still pushes the rest into the closed stream,
 * an unhandled rejection in Node's own code that fails the run.
 */
async function upload(account: TestAccount | null, tagId: string, body: FormData | BodyInit, headers: Record<string, string> = {}) {
  const auth = account ? bearer(account.accessToken) : {};
  let rawBody = body as BodyInit;
  let contentType: Record<string, string> = {};
  if (body instanceof FormData) {
    const encoded = new Response(body);
    contentType = { "Content-Type": encoded.headers.get("content-type")! };
    rawBody = new Uint8Array(await encoded.arrayBuffer());
  }
  return call(uploadRoute, apiRequest(`/api/v1/profiles/${tagId}/photos`, { method: "POST", headers: { ...auth, ...contentType, ...headers }, rawBody }), { tagId });
}

async function uploadOk(account: TestAccount, tagId: string, file: Buffer, options: { isPrimary?: string } = {}): Promise<Photo> {
  const response = await upload(account, tagId, form(file, { name: "p.jpg", type: "image/jpeg", ...options }));
  expect(response.status, await response.clone().text()).toBe(201);
  return (await json<Envelope<Photo>>(response)).data;
}

async function listPhotos(account: TestAccount, tagId: string): Promise<Photo[]> {
  const response = await call(getProfileRoute, apiRequest(`/api/v1/profiles/${tagId}`, { headers: bearer(account.accessToken) }), { tagId });
  return (await json<Envelope<{ photos: Photo[] }>>(response)).data.photos;
}

function deletePhoto(account: TestAccount | null, tagId: string, photoId: string) {
  const auth = account ? bearer(account.accessToken) : {};
  return call(deletePhotoRoute, apiRequest(`/api/v1/profiles/${tagId}/photos/${photoId}`, { method: "DELETE", headers: auth }), { tagId, photoId });
}

function deleteByQuery(account: TestAccount, tagId: string, photoId?: string) {
  const query = photoId === undefined ? "" : `?photoId=${encodeURIComponent(photoId)}`;
  return call(deleteByQueryRoute, apiRequest(`/api/v1/profiles/${tagId}/photos${query}`, { method: "DELETE", headers: bearer(account.accessToken) }), { tagId });
}

function serve(photoId: string, headers: Record<string, string> = {}) {
  return call(servePhoto as never, apiRequest(`/api/photos/${photoId}`, { headers }), { photoId });
}

async function fieldErrors(response: Response): Promise<string[]> {
  return Object.keys((await json<Envelope>(response)).error?.details?.fieldErrors ?? {});
}

let owner: TestAccount;
let stranger: TestAccount;
let tagId: string;

beforeAll(async () => {
  stranger = await registerAccount();
});

beforeEach(async () => {
  owner = await registerAccount();
  await setTier(owner.id, "PRO");
  tagId = (await claimTestTag(owner, { itemName: "Camera bag" })).id;
});

describe("POST /profiles/:tagId/photos", () => {
  it("re-encodes a JPEG: upright by its EXIF orientation, with no EXIF or GPS left, stored and served", async () => {
    const original = await jpegWithGpsAndOrientation();
    const before = await sharp(original).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD pointer tag

    const photo = await uploadOk(owner, tagId, original);
    expect(photo).toMatchObject({ isPrimary: true, url: `/api/photos/${photo.id}` });

    const [row] = await getDatabase().db.select().from(schema.tagPhotos).where(eq(schema.tagPhotos.id, photo.id));
    expect(row).toMatchObject({ tagId, contentType: "image/jpeg", width: 30, height: 60, isPrimary: true });
    const stored = await sharp(row!.data).metadata();
    expect(stored.format).toBe("jpeg");
    expect(stored.exif).toBeUndefined();
    expect(stored.xmp).toBeUndefined();
    expect(stored.iptc).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    expect([stored.width, stored.height]).toEqual([30, 60]);
    expect(row!.data.includes(Buffer.from("TestCam"))).toBe(false);

    const served = await serve(photo.id);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = served.headers.get("etag");
    expect(etag).toBeTruthy();
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.equals(row!.data)).toBe(true);
    const servedMeta = await sharp(bytes).metadata();
    expect(servedMeta.exif).toBeUndefined();
    expect(servedMeta.orientation).toBeUndefined();

    const revalidated = await serve(photo.id, { "if-none-match": etag! });
    expect(revalidated.status).toBe(304);
  });

  it("judges the type by content: a PNG named .jpg and sent as image/jpeg is stored as PNG; WebP is accepted", async () => {
    const photo = await uploadOk(owner, tagId, await png(), {});
    const served = await serve(photo.id);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe("png");

    const response = await upload(owner, tagId, form(await webp(), { name: "photo.png", type: "text/plain" }));
    expect(response.status).toBe(201);
    const webpPhoto = (await json<Envelope<Photo>>(response)).data;
    expect((await serve(webpPhoto.id)).headers.get("content-type")).toBe("image/webp");
  });

  it("refuses a text file, an SVG, a truncated image, a missing file and a non-multipart body with 400 on file", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>';
    const jpegHead = (await jpegWithGpsAndOrientation()).subarray(0, 40);
    const cases: [FormData | string, Record<string, string>][] = [
      [form("just some text", { name: "notes.jpg", type: "image/jpeg" }), {}],
      [form(svg, { name: "drawing.svg", type: "image/svg+xml" }), {}],
      [form(Buffer.from(jpegHead), { name: "broken.jpg", type: "image/jpeg" }), {}],
      [form("a string, not a file"), {}],
      [form(null), {}],
      [JSON.stringify({ file: "x" }), { "content-type": "application/json" }],
    ];
    for (const [body, headers] of cases) {
      const response = await upload(owner, tagId, body, headers);
      expect(response.status).toBe(400);
      expect(await fieldErrors(response)).toEqual(["file"]);
    }
    expect(await listPhotos(owner, tagId)).toEqual([]);
  });

  it("refuses a file over 5 MB with 400 and a body over 6 MB with 413", async () => {
    const image = await png();
    const justOver = Buffer.concat([image, Buffer.alloc(5 * MB + 1 - image.length)]);
    const tooBig = await upload(owner, tagId, form(justOver, { name: "big.png", type: "image/png" }));
    expect(tooBig.status).toBe(400);
    expect(await fieldErrors(tooBig)).toEqual(["file"]);

    const huge = await upload(owner, tagId, form(Buffer.alloc(7 * MB, 1), { name: "huge.png", type: "image/png" }));
    expect(huge.status).toBe(413);
    expect((await json<Envelope>(huge)).error?.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await listPhotos(owner, tagId)).toEqual([]);
  });

  it("scales a large image down to 2048 px", async () => {
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: "#888" } }).jpeg().toBuffer();
    const photo = await uploadOk(owner, tagId, big);
    const meta = await sharp(Buffer.from(await (await serve(photo.id)).arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([2048, 1024]);
  });

  it("allows 10 photos per tag; the 11th is 422", async () => {
    const image = await png(8);
    for (let i = 0; i < 10; i++) await uploadOk(owner, tagId, image);
    const eleventh = await upload(owner, tagId, form(image, { name: "p.png", type: "image/png" }));
    expect(eleventh.status).toBe(422);
    expect((await json<Envelope>(eleventh)).error?.code).toBe("UNPROCESSABLE_ENTITY");
    expect(await listPhotos(owner, tagId)).toHaveLength(10);
  });

  it("makes the first photo primary, moves the primary on isPrimary=true, and keeps exactly one", async () => {
    const image = await png(8);
    const first = await uploadOk(owner, tagId, image, { isPrimary: "false" });
    expect(first.isPrimary).toBe(true);
    const second = await uploadOk(owner, tagId, image);
    expect(second.isPrimary).toBe(false);
    const third = await uploadOk(owner, tagId, image, { isPrimary: "true" });
    expect(third.isPrimary).toBe(true);
    const photos = await listPhotos(owner, tagId);
    expect(photos.map((p) => [p.id, p.isPrimary])).toEqual([
      [first.id, false],
      [second.id, false],
      [third.id, true],
    ]);

    const bad = await upload(owner, tagId, form(image, { name: "p.png", isPrimary: "yes" }));
    expect(bad.status).toBe(400);
    expect(await fieldErrors(bad)).toEqual(["isPrimary"]);

    // The primary can be chosen later, among the tag's own photos only.
    const patch = (account: TestAccount, photoId: string, body: unknown) =>
      call(patchPhotoRoute, apiRequest(`/api/v1/profiles/${tagId}/photos/${photoId}`, { method: "PATCH", headers: bearer(account.accessToken), body }), { tagId, photoId });
    const chosen = await patch(owner, first.id, { isPrimary: true });
    expect(chosen.status).toBe(200);
    expect((await listPhotos(owner, tagId)).filter((p) => p.isPrimary).map((p) => p.id)).toEqual([first.id]);
    expect((await patch(owner, first.id, { isPrimary: false })).status).toBe(400);
    expect((await patch(stranger, second.id, { isPrimary: true })).status).toBe(404);
    expect((await patch(owner, MISSING_ID, { isPrimary: true })).status).toBe(404);
  });

  it("another user's tag, an unknown and a malformed tag id are 404; no credential is 401", async () => {
    const image = await png(8);
    for (const [account, id] of [
      [stranger, tagId],
      [owner, MISSING_ID],
      [owner, "nope"],
    ] as const) {
      const response = await upload(account, id, form(image, { name: "p.png" }));
      expect(response.status).toBe(404);
    }
    expect((await upload(null, tagId, form(image, { name: "p.png" }))).status).toBe(401);
    expect(await listPhotos(owner, tagId)).toEqual([]);
  });

  it("answers 405 for an unsupported method", async () => {
    const response = await call(photosGet, apiRequest(`/api/v1/profiles/${tagId}/photos`, { headers: bearer(owner.accessToken) }), { tagId });
    expect(response.status).toBe(405);
  });
});

describe("DELETE photos", () => {
  it("deletes by path; when the primary goes, the oldest remaining becomes primary; the url then 404s", async () => {
    const image = await png(8);
    const a = await uploadOk(owner, tagId, image);
    const b = await uploadOk(owner, tagId, image);
    const c = await uploadOk(owner, tagId, image, { isPrimary: "true" });

    const response = await deletePhoto(owner, tagId, c.id);
    expect(response.status).toBe(200);
    expect((await listPhotos(owner, tagId)).map((p) => [p.id, p.isPrimary])).toEqual([
      [a.id, true],
      [b.id, false],
    ]);
    const gone = await serve(c.id);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("content-type")).not.toContain("json");

    expect((await deletePhoto(owner, tagId, b.id)).status).toBe(200);
    expect((await listPhotos(owner, tagId)).map((p) => [p.id, p.isPrimary])).toEqual([[a.id, true]]);
    expect((await deletePhoto(owner, tagId, b.id)).status).toBe(404);
  });

  it("deletes by ?photoId=; a missing photoId is 400, a malformed or unknown one 404", async () => {
    const photo = await uploadOk(owner, tagId, await png(8));
    expect((await deleteByQuery(owner, tagId)).status).toBe(400);
    expect((await deleteByQuery(owner, tagId, "not-a-uuid")).status).toBe(404);
    expect((await deleteByQuery(owner, tagId, MISSING_ID)).status).toBe(404);
    const response = await deleteByQuery(owner, tagId, photo.id);
    expect(response.status).toBe(200);
    expect(await listPhotos(owner, tagId)).toEqual([]);
  });

  it("another user cannot delete a photo, nor reach it through their own tag", async () => {
    const photo = await uploadOk(owner, tagId, await png(8));
    const strangerTag = await claimTestTag(stranger);
    expect((await deletePhoto(stranger, tagId, photo.id)).status).toBe(404);
    expect((await deletePhoto(stranger, strangerTag.id, photo.id)).status).toBe(404);
    expect((await deleteByQuery(stranger, strangerTag.id, photo.id)).status).toBe(404);
    expect((await deletePhoto(owner, "bad-id", photo.id)).status).toBe(404);
    expect((await deletePhoto(owner, tagId, "bad-id")).status).toBe(404);
    expect((await deletePhoto(null, tagId, photo.id)).status).toBe(401);
    expect(await listPhotos(owner, tagId)).toHaveLength(1);
  });
});

describe("GET /api/photos/:photoId", () => {
  it("answers 404 without the JSON envelope for an unknown or malformed id", async () => {
    for (const id of [MISSING_ID, "not-a-uuid"]) {
      const response = await serve(id);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("text/plain");
    }
  });
});
