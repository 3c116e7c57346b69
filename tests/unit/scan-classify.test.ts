import { describe, expect, it } from "vitest";
import { list as isbotList, isbot } from "isbot";
import { classifyScan, type ScanFacts } from "@/lib/services/scans/classify";
import { describeUserAgent, GENERIC_CLIENT_PATTERNS, isBotUserAgent, LINK_SCANNER_PATTERNS, missingGenericClientPatterns } from "@/lib/services/scans/user-agents";
import { USER_AGENTS as UA } from "../support/user-agents";

const visit = (facts: Partial<ScanFacts> = {}): ScanFacts => ({ isOwner: false, method: "GET", prefetch: false, userAgent: UA.iphoneSafari, recentRealScanFromSameClient: false, ...facts });

describe("the bot detector (isbot's list, less generic HTTP clients, plus link scanners)", () => {
  it.each([
    ["Googlebot", UA.googlebot],
    ["Googlebot smartphone", UA.googlebotSmartphone],
    ["Slackbot link expanding", UA.slackbot],
    ["WhatsApp", UA.whatsapp],
    ["facebookexternalhit", UA.facebook],
    ["Twitterbot", UA.twitterbot],
    ["Discordbot", UA.discordbot],
    ["TelegramBot", UA.telegram],
    ["LinkedInBot", UA.linkedin],
    ["Outlook / Safe Links link check (ms-office)", UA.outlookSafeLinks],
    ["Outlook link preview", UA.outlookPreview],
    ["Teams link preview", UA.teamsPreview],
    ["BingPreview", UA.bingPreview],
    ["Kaspersky link resolver", UA.kasperskyLinkResolver],
    ["AhrefsBot", UA.ahrefs],
    ["a user agent naming Proofpoint", "Mozilla/5.0 (compatible; Proofpoint URL Defense)"],
    ["a user agent naming Barracuda", "Mozilla/5.0 (compatible; Barracuda Sentinel)"],
  ])("%s is a bot", (_name, ua) => {
    expect(isBotUserAgent(ua)).toBe(true);
  });

  it.each([
    ["iPhone Safari", UA.iphoneSafari],
    ["Android Chrome", UA.androidChrome],
    ["Windows Edge", UA.windowsEdge],
    ["Mac Safari", UA.macSafari],
    ["curl", UA.curl],
    ["wget", UA.wget],
    ["python-requests", UA.pythonRequests],
    ["Node's fetch", UA.nodeFetch],
    ["undici", UA.undici],
    ["axios", UA.axios],
    ["okhttp", UA.okhttp],
    ["Go", UA.go],
    ["Java", UA.java],
    ["Apache HttpClient", UA.apacheHttpClient],
    ["an empty user agent", ""],
    ["no user agent", null],
  ])("%s is not a bot", (_name, ua) => {
    expect(isBotUserAgent(ua)).toBe(false);
  });

  it("differs from isbot only on the generic HTTP clients (isbot counts them as bots)", () => {
    for (const ua of [UA.curl, UA.wget, UA.pythonRequests, UA.nodeFetch, UA.undici, UA.axios, UA.okhttp, UA.go, UA.java, UA.apacheHttpClient]) expect(isbot(ua), ua).toBe(true);
    for (const ua of [UA.googlebot, UA.slackbot, UA.whatsapp, UA.facebook, UA.twitterbot, UA.discordbot, UA.telegram, UA.iphoneSafari, UA.androidChrome]) {
      expect(isBotUserAgent(ua), ua).toBe(isbot(ua));
    }
  });

  it("removes patterns isbot really has, and adds only what isbot lacks (a changed isbot release shows here)", () => {
    expect(missingGenericClientPatterns()).toEqual([]);
    expect(GENERIC_CLIENT_PATTERNS.every((pattern) => isbotList.includes(pattern))).toBe(true);
    for (const pattern of LINK_SCANNER_PATTERNS) expect(isbotList).not.toContain(pattern);
  });
  it("answers the same once its answers are kept, for more strings than it keeps and past the kept length", () => {
    const strings = Array.from({ length: 1_200 }, (_, i) => (i % 2 ? `Mozilla/5.0 (iPhone) Safari/${i}` : `ExampleCrawler${i}/1.0 (+https://example.com/bot)`));
    const first = strings.map((ua) => isBotUserAgent(ua));
    expect(first.filter(Boolean)).toHaveLength(600);
    expect(strings.map((ua) => isBotUserAgent(ua))).toEqual(first);
    // Longer than what is kept: the whole string is still what is tested (a match at its very end).
    const long = `Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) ${"x".repeat(1_200)} Googlebot/2.1`;
    expect(isBotUserAgent(long)).toBe(true);
    expect(isBotUserAgent(long)).toBe(true);
  });
});

describe("the user-agent class a scan keeps", () => {
  it.each([
    [UA.iphoneSafari, "iPhone · Safari"],
    [UA.androidChrome, "Android · Chrome"],
    [UA.windowsEdge, "Windows · Edge"],
    [UA.macSafari, "Mac · Safari"],
    [UA.googlebot, "Googlebot"],
    [UA.googlebotSmartphone, "Googlebot"],
    [UA.slackbot, "Slackbot link preview"],
    [UA.whatsapp, "WhatsApp link preview"],
    [UA.facebook, "Facebook link preview"],
    [UA.twitterbot, "X (Twitter) link preview"],
    [UA.discordbot, "Discord link preview"],
    [UA.telegram, "Telegram link preview"],
    [UA.outlookSafeLinks, "Microsoft Office link check"],
    [UA.ahrefs, "AhrefsBot"],
    [UA.curl, "HTTP client · curl"],
    [UA.pythonRequests, "HTTP client · python-requests"],
    ["", null],
    [null, null],
  ])("%s → %s", (ua, label) => {
    expect(describeUserAgent(ua)).toBe(label);
  });

  it("is short and never the raw string", () => {
    const long = `Mozilla/5.0 (compatible; ${"X".repeat(500)}bot/1.0)`;
    expect(describeUserAgent(long)!.length).toBeLessThanOrEqual(40);
    for (const ua of Object.values(UA)) {
      const label = describeUserAgent(ua)!;
      expect(label.length, ua).toBeLessThanOrEqual(40);
      expect(label, ua).not.toBe(ua);
    }
  });
});

describe("classifyScan (OWNER > PREFETCH > BOT > REPEAT > REAL)", () => {
  it("a person's first scan is REAL, and again within the window REPEAT", () => {
    expect(classifyScan(visit())).toBe("REAL");
    expect(classifyScan(visit({ userAgent: UA.curl }))).toBe("REAL");
    expect(classifyScan(visit({ userAgent: null }))).toBe("REAL");
    expect(classifyScan(visit({ recentRealScanFromSameClient: true }))).toBe("REPEAT");
  });

  it("HEAD and prefetches are PREFETCH, bots BOT, whatever the repeat window says", () => {
    expect(classifyScan(visit({ method: "HEAD" }))).toBe("PREFETCH");
    expect(classifyScan(visit({ method: "head" }))).toBe("PREFETCH");
    expect(classifyScan(visit({ prefetch: true }))).toBe("PREFETCH");
    expect(classifyScan(visit({ prefetch: true, userAgent: UA.slackbot }))).toBe("PREFETCH");
    expect(classifyScan(visit({ userAgent: UA.slackbot }))).toBe("BOT");
    expect(classifyScan(visit({ userAgent: UA.googlebot, recentRealScanFromSameClient: true }))).toBe("BOT");
  });

  it("the owner's own scan is OWNER before anything else", () => {
    expect(classifyScan(visit({ isOwner: true, method: "HEAD", prefetch: true, userAgent: UA.googlebot, recentRealScanFromSameClient: true }))).toBe("OWNER");
  });
});
