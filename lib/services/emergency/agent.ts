/**
 * A short, human description of a reader's browser and system ("Safari on iOS") for the emergency
 * access log: enough for the owner to recognise a reading, never the raw user agent (which is long,
 * fingerprintable and attacker-controlled). Null when nothing is recognised.
 */
const BROWSERS: [RegExp, string][] = [
  [/(bot|crawler|spider)\b|\b(slurp|facebookexternalhit|whatsapp|preview|curl|wget|python-requests|httpclient|okhttp|headless)/i, "Automated client"],
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

export function describeUserAgent(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  const ua = userAgent.slice(0, 512);
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser === "Automated client") return browser;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
