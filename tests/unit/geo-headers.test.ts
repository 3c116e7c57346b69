import { describe, expect, it } from "vitest";
import { buildEnv } from "@/lib/env";
import { clientGeo, MAX_CITY_LENGTH } from "@/lib/http/geo-headers";

const vercel = (values: Record<string, string>) => new Headers(Object.entries(values).map(([name, value]): [string, string] => [`x-vercel-ip-${name}`, value]));
const cloudflare = (values: Record<string, string>) => new Headers(Object.entries(values).map(([name, value]): [string, string] => [`cf-ip${name}`, value]));
const BERLIN = { latitude: "52.52", longitude: "13.405", city: "Berlin%20Mitte", country: "DE" };
/** What Node hands over for a header sent as raw UTF-8 bytes: one Latin-1 character per byte. */
const asHeaderBytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

describe("GEO_HEADERS", () => {
  it("is none by default and takes only none, vercel or cloudflare", () => {
    expect(buildEnv({ NODE_ENV: "development" }).GEO_HEADERS).toBe("none");
    expect(buildEnv({ NODE_ENV: "development", GEO_HEADERS: "vercel" }).GEO_HEADERS).toBe("vercel");
    expect(buildEnv({ NODE_ENV: "development", GEO_HEADERS: "cloudflare" }).GEO_HEADERS).toBe("cloudflare");
    expect(() => buildEnv({ NODE_ENV: "development", GEO_HEADERS: "fastly" })).toThrow(/GEO_HEADERS/);
  });
});

describe("clientGeo: the one reader of geo headers", () => {
  it("reads nothing with GEO_HEADERS none, or without a trusted proxy, whatever the client sends", () => {
    expect(clientGeo(vercel(BERLIN), "none", 1)).toBeNull();
    expect(clientGeo(vercel(BERLIN), "none", 2)).toBeNull();
    expect(clientGeo(vercel(BERLIN), "vercel", 0)).toBeNull();
    expect(clientGeo(cloudflare({ latitude: "52.52", longitude: "13.405", city: "Berlin", country: "DE" }), "cloudflare", 0)).toBeNull();
  });

  it("reads only the named provider's headers", () => {
    expect(clientGeo(vercel(BERLIN), "vercel", 1)).toEqual({ latitude: 52.52, longitude: 13.405, city: "Berlin Mitte", country: "DE" });
    expect(clientGeo(vercel(BERLIN), "cloudflare", 1)).toBeNull();
    const cf = cloudflare({ latitude: "48.85660", longitude: "2.35220", city: "Paris", country: "FR" });
    expect(clientGeo(cf, "cloudflare", 1)).toEqual({ latitude: 48.8566, longitude: 2.3522, city: "Paris", country: "FR" });
    expect(clientGeo(cf, "vercel", 1)).toBeNull();
  });

  it("percent-decodes Vercel's city (RFC 3986) and reads Cloudflare's as UTF-8 text, never decoding it", () => {
    expect(clientGeo(vercel({ city: "S%C3%A3o%20Paulo" }), "vercel", 1)?.city).toBe("São Paulo");
    expect(clientGeo(vercel({ city: "Z%C3%BCrich" }), "vercel", 1)?.city).toBe("Zürich");
    expect(clientGeo(cloudflare({ city: asHeaderBytes("Zürich") }), "cloudflare", 1)?.city).toBe("Zürich");
    expect(clientGeo(cloudflare({ city: "100%25 Town" }), "cloudflare", 1)?.city).toBe("100%25 Town");
    // Invalid UTF-8 from Cloudflare (a lone Latin-1 byte) is not a city.
    expect(clientGeo(cloudflare({ city: "Z\u00fcrich", country: "CH" }), "cloudflare", 1)).toEqual({ latitude: null, longitude: null, city: null, country: "CH" });
  });

  it("drops an invalid city, never stores it: broken escapes, NUL and control characters after decoding, too long, raw bytes from Vercel", () => {
    const rejected = [
      "%E0%A4%A",
      "Paris%00",
      "%00",
      "Par%0Ais",
      "Paris%1B%5B31m",
      "%7F",
      "%E2%80%AEsiraP", // right-to-left override
      "Pa%E2%80%8Bris", // zero-width space
      "%ED%A0%80", // an encoded surrogate
      "%20%20",
      "x".repeat(MAX_CITY_LENGTH + 1),
      "x".repeat(5000),
      "Z\u00fcrich", // Vercel encodes everything outside ASCII
    ];
    for (const city of rejected) expect(clientGeo(vercel({ city, country: "FR" }), "vercel", 1), city).toEqual({ latitude: null, longitude: null, city: null, country: "FR" });
    expect(clientGeo(vercel({ city: "y".repeat(MAX_CITY_LENGTH) }), "vercel", 1)?.city).toBe("y".repeat(MAX_CITY_LENGTH));
    for (const city of ["Paris\u0001", "Paris\u007f", "Par\tis", asHeaderBytes("\u0085")]) expect(clientGeo(cloudflare({ city }), "cloudflare", 1), JSON.stringify(city)).toBeNull();
  });

  it("takes the coordinates only as a pair of finite decimals in range", () => {
    const located = (latitude: string, longitude: string) => clientGeo(vercel({ latitude, longitude }), "vercel", 1);
    expect(located("90", "-180")).toMatchObject({ latitude: 90, longitude: -180 });
    expect(located("-90.0", "180.000")).toMatchObject({ latitude: -90, longitude: 180 });
    expect(located("+1.5", "-0.1278")).toMatchObject({ latitude: 1.5, longitude: -0.1278 });
    for (const [latitude, longitude] of [
      ["999", "2"],
      ["1", "-5000"],
      ["90.0001", "0"],
      ["0", "180.5"],
      ["NaN", "1"],
      ["Infinity", "1"],
      ["1e1", "2"],
      ["0x10", "2"],
      ["1.", "2"],
      [".5", "2"],
      ["1 2", "3"],
      ["", "2"],
    ]) {
      expect(located(latitude!, longitude!), `${latitude} ${longitude}`).toBeNull();
    }
    // An invalid coordinate drops both, but keeps a valid city and country.
    expect(clientGeo(vercel({ ...BERLIN, longitude: "-5000" }), "vercel", 1)).toEqual({ latitude: null, longitude: null, city: "Berlin Mitte", country: "DE" });
  });

  it("takes a country only as two upper-case letters; XX (unknown) and T1 (Tor) are no country", () => {
    const country = (value: string) => clientGeo(cloudflare({ country: value }), "cloudflare", 1)?.country ?? null;
    expect(country("GB")).toBe("GB");
    for (const value of ["XX", "T1", "gb", "GBR", "G", "%47%42"]) expect(country(value), value).toBeNull();
  });

  it("ignores a header sent twice (Headers joins the copies with a comma) and an empty one", () => {
    const twice = new Headers([
      ["x-vercel-ip-latitude", "35.68"],
      ["x-vercel-ip-latitude", "48.85"],
      ["x-vercel-ip-longitude", "139.69"],
      ["x-vercel-ip-city", "Tokyo"],
      ["x-vercel-ip-city", "Paris"],
      ["x-vercel-ip-country", "JP"],
      ["x-vercel-ip-country", "FR"],
    ]);
    expect(clientGeo(twice, "vercel", 1)).toBeNull();
    const cfTwice = new Headers([
      ["cf-ipcity", "Tokyo"],
      ["cf-ipcity", "Paris"],
      ["cf-ipcountry", "FR"],
    ]);
    expect(clientGeo(cfTwice, "cloudflare", 1)).toEqual({ latitude: null, longitude: null, city: null, country: "FR" });
    expect(clientGeo(vercel({ latitude: "", longitude: "", city: "", country: "" }), "vercel", 1)).toBeNull();
    expect(clientGeo(vercel({ latitude: " ", longitude: "2", city: " ", country: " " }), "vercel", 1)).toBeNull();
  });
});
