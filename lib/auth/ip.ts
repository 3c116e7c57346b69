import { isIP } from "node:net";

/** What we keep of a client address for session lists: IPv4 /24, IPv6 /48. */
export function maskIp(ip: string): string | null {
  if (isIP(ip) === 4) return ip.split(".").slice(0, 3).concat("0").join(".");
  if (isIP(ip) === 6) {
    const [head] = ip.split("::");
    const groups = (head ?? "").split(":").filter(Boolean).slice(0, 3);
    return `${groups.join(":")}::`;
  }
  return null;
}
