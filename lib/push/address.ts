import { isIP } from "node:net";

/**
 * Classifies an IP address for the push SSRF guard: only `public` addresses may be contacted by
 * production. Covers IPv4, IPv6 and IPv6 forms that embed an IPv4 address (mapped, compatible,
 * NAT64, 6to4), which are judged by the embedded address.
 */
export type AddressKind = "public" | "unspecified" | "loopback" | "private" | "link-local" | "unique-local" | "shared" | "multicast" | "reserved" | "invalid";

type Range4 = [prefix: number[], bits: number, kind: AddressKind];

const IPV4_RANGES: Range4[] = [
  [[0], 8, "unspecified"], // "this network"
  [[10], 8, "private"],
  [[100, 64], 10, "shared"], // CGNAT
  [[127], 8, "loopback"],
  [[169, 254], 16, "link-local"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "reserved"], // IETF protocol assignments
  [[192, 0, 2], 24, "reserved"], // TEST-NET-1
  [[192, 88, 99], 24, "reserved"], // 6to4 relay anycast
  [[192, 168], 16, "private"],
  [[198, 18], 15, "reserved"], // benchmarking
  [[198, 51, 100], 24, "reserved"], // TEST-NET-2
  [[203, 0, 113], 24, "reserved"], // TEST-NET-3
  [[224], 4, "multicast"],
  [[240], 4, "reserved"], // includes 255.255.255.255
];

function inPrefix(bytes: number[], prefix: number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit += 8) {
    const index = bit / 8;
    const span = Math.min(8, bits - bit);
    const mask = (0xff << (8 - span)) & 0xff;
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false;
  }
  return true;
}

function parseIPv4(address: string): number[] | null {
  if (isIP(address) !== 4) return null;
  return address.split(".").map(Number);
}

/** The 16 bytes of an IPv6 address (with or without a dotted IPv4 tail), or null. */
export function parseIPv6(address: string): number[] | null {
  const bare = address.replace(/%.*$/, "");
  if (isIP(bare) !== 6) return null;
  let text = bare;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = parseIPv4(dotted[1]!);
    if (!v4) return null;
    tail.push(...v4);
    text = text.slice(0, -dotted[1]!.length) + "0:0";
  }
  const [head, rest] = text.includes("::") ? (text.split("::") as [string, string]) : [text, undefined];
  const headGroups = head ? head.split(":") : [];
  const restGroups = rest === undefined ? [] : rest ? rest.split(":") : [];
  const missing = 8 - headGroups.length - restGroups.length;
  if (rest === undefined ? missing !== 0 : missing < 0) return null;
  const groups = [...headGroups, ...Array<string>(rest === undefined ? 0 : missing).fill("0"), ...restGroups].map((group) => parseInt(group, 16));
  const bytes = groups.flatMap((group) => [(group >> 8) & 0xff, group & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function classifyIPv4(bytes: number[]): AddressKind {
  for (const [prefix, bits, kind] of IPV4_RANGES) if (inPrefix(bytes, prefix, bits)) return kind;
  return "public";
}

function classifyIPv6(bytes: number[]): AddressKind {
  const zeroUpTo = (n: number) => bytes.slice(0, n).every((b) => b === 0);
  if (zeroUpTo(16)) return "unspecified";
  if (zeroUpTo(15) && bytes[15] === 1) return "loopback";
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (deprecated compatible): judge the IPv4 address.
  if (zeroUpTo(10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyIPv4(bytes.slice(12));
  if (zeroUpTo(12)) return classifyIPv4(bytes.slice(12));
  // 64:ff9b::/96 (NAT64) embeds the IPv4 address in the last 32 bits.
  if (inPrefix(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96)) return classifyIPv4(bytes.slice(12));
  // 2002::/16 (6to4) embeds it in bits 16–47.
  if (inPrefix(bytes, [0x20, 0x02], 16)) return classifyIPv4(bytes.slice(2, 6));
  if (inPrefix(bytes, [0xfc], 7)) return "unique-local";
  if (inPrefix(bytes, [0xfe, 0x80], 10)) return "link-local";
  if (inPrefix(bytes, [0xfe, 0xc0], 10)) return "private"; // deprecated site-local
  if (inPrefix(bytes, [0xff], 8)) return "multicast";
  if (inPrefix(bytes, [0x01, 0x00, 0, 0, 0, 0, 0, 0], 64)) return "reserved"; // discard-only
  if (inPrefix(bytes, [0x20, 0x01, 0x0d, 0xb8], 32)) return "reserved"; // documentation
  if (inPrefix(bytes, [0x20, 0x01, 0x00], 23)) return "reserved"; // IETF protocol assignments (Teredo, ORCHID, …)
  return "public";
}

export function classifyAddress(address: string): AddressKind {
  const v4 = parseIPv4(address);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(address);
  if (v6) return classifyIPv6(v6);
  return "invalid";
}

export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === "public";
}
