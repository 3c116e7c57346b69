import { describe, expect, it } from "vitest";
import { cleanText, finderText, ownerCodedText, RELAY_CODE_ALPHABET, routeOwnerReply, smsKeyword } from "@/lib/services/relay/sms-words";
import { callerLocale, gatherPin, relayUrls } from "@/lib/services/relay/twiml";

describe("smsKeyword", () => {
  it("knows STOP and the carriers' synonyms, START, HELP and INFO, in any case with a final stop", () => {
    for (const word of ["STOP", "stop", "StopAll", "UNSUBSCRIBE", "cancel", "END", "quit", " stop. ", "STOP!"]) expect(smsKeyword(word)).toBe("stop");
    for (const word of ["START", "unstop", "yes"]) expect(smsKeyword(word)).toBe("start");
    for (const word of ["HELP", "info", "Help."]) expect(smsKeyword(word)).toBe("help");
  });

  it("does not read a keyword inside a message", () => {
    for (const text of ["please stop", "STOP it now", "123456 stop", "helpful", ""]) expect(smsKeyword(text)).toBeNull();
  });
});

describe("finderText", () => {
  it("takes a leading 6-digit PIN and the rest as the text", () => {
    expect(finderText("123456 Found your dog")).toEqual({ pin: "123456", text: "Found your dog" });
    expect(finderText("  123456: Found\nit ")).toEqual({ pin: "123456", text: "Found\nit" });
    expect(finderText("123456")).toEqual({ pin: "123456", text: "" });
    expect(finderText("123456-hi")).toEqual({ pin: "123456", text: "hi" });
  });

  it("refuses a text that does not start with exactly 6 digits", () => {
    for (const text of ["1234567 hi", "12345 hi", "hi 123456", "", "PIN 123456"]) expect(finderText(text)).toBeNull();
  });
});

describe("ownerCodedText and routeOwnerReply", () => {
  const open = [
    { threadId: "t-newest", relayCode: "AB7K" },
    { threadId: "t-older", relayCode: "ZZ23" },
  ];

  it("reads a leading code in any case, only from the code alphabet", () => {
    expect(ownerCodedText("ab7k Thanks")).toEqual({ code: "AB7K", text: "Thanks" });
    expect(ownerCodedText("ZZ23: on my way")).toEqual({ code: "ZZ23", text: "on my way" });
    expect(ownerCodedText("AB0K hi")).toBeNull(); // 0 is not in the alphabet
    expect(ownerCodedText("Thanks a lot")).toBeNull(); // a 6-letter word is not a code
    expect([...RELAY_CODE_ALPHABET].some((char) => "01ILO".includes(char))).toBe(false);
  });

  it("with no open conversation: none", () => {
    expect(routeOwnerReply("hi", [])).toEqual({ kind: "none" });
  });

  it("with one: the whole text, or the text after its code", () => {
    expect(routeOwnerReply("Thank you", [open[0]!])).toEqual({ kind: "to", threadId: "t-newest", text: "Thank you" });
    expect(routeOwnerReply("AB7K Thank you", [open[0]!])).toEqual({ kind: "to", threadId: "t-newest", text: "Thank you" });
    // A word that looks like a code but is not this conversation's is part of the text.
    expect(routeOwnerReply("Cool thanks", [open[0]!])).toEqual({ kind: "to", threadId: "t-newest", text: "Cool thanks" });
    expect(routeOwnerReply("  ", [open[0]!])).toEqual({ kind: "empty" });
  });

  it("with several: asks for a code, newest first, unless the text starts with one of theirs", () => {
    expect(routeOwnerReply("Where are you?", open)).toEqual({ kind: "ask", codes: ["AB7K", "ZZ23"] });
    expect(routeOwnerReply("zz23 Where are you?", open)).toEqual({ kind: "to", threadId: "t-older", text: "Where are you?" });
    expect(routeOwnerReply("QQQQ hi", open)).toEqual({ kind: "ask", codes: ["AB7K", "ZZ23"] });
    expect(routeOwnerReply("AB7K", open)).toEqual({ kind: "empty" });
  });
});

describe("cleanText and the caller's language", () => {
  it("turns control characters and lone surrogates into something the database stores", () => {
    expect(cleanText("a\u0000b\u0007c\nd")).toBe("a b c\nd");
    expect(cleanText("x\ud800y")).toBe("x\uFFFDy");
    expect(cleanText("😀")).toBe("😀");
    expect(cleanText("x".repeat(2000))).toHaveLength(1600);
  });

  it("speaks German, French or Spanish where the country does, else English", () => {
    expect(callerLocale({ FromCountry: "DE" })).toBe("de");
    expect(callerLocale({ FromCountry: "at" })).toBe("de");
    expect(callerLocale({ FromCountry: "FR" })).toBe("fr");
    expect(callerLocale({ FromCountry: "MX" })).toBe("es");
    expect(callerLocale({ FromCountry: "US" })).toBe("en");
    expect(callerLocale({ From: "+33612345678" })).toBe("fr");
    expect(callerLocale({ From: "anonymous" })).toBe("en");
    expect(gatherPin(relayUrls("https://tags.example/"), "fr")).toContain('<Say language="fr-FR">');
    expect(gatherPin(relayUrls("https://tags.example/"), "en")).toContain('action="https://tags.example/api/v1/webhooks/telephony/voice"');
  });
});
