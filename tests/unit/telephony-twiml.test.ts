import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { gatheredDigits } from "@/lib/telephony/test-network";
import { parseTwiml, parseXml, TwimlError } from "@/lib/telephony/twiml";

const APP = "http://localhost:3000/api/v1/webhooks/telephony";

describe("parseTwiml reads what the twilio SDK writes", () => {
  it("reads the relay's first answer: a Gather with its spoken prompt, then Say and Hangup", () => {
    const response = new twilio.twiml.VoiceResponse();
    const gather = response.gather({ input: ["dtmf"], numDigits: 6, action: `${APP}/voice`, method: "POST", timeout: 10 });
    gather.say({ language: "de-DE" }, "Bitte geben Sie die PIN ein & drücken Sie <nichts>.");
    response.say("Goodbye.");
    response.hangup();

    expect(parseTwiml(response.toString())).toEqual([
      {
        verb: "Gather",
        action: `${APP}/voice`,
        method: "POST",
        numDigits: 6,
        finishOnKey: "#",
        timeout: 10,
        prompts: [{ verb: "Say", text: "Bitte geben Sie die PIN ein & drücken Sie <nichts>.", language: "de-DE" }],
      },
      { verb: "Say", text: "Goodbye." },
      { verb: "Hangup" },
    ]);
  });

  it("reads a Dial with its callerId, action, timeout and the Number's whisper url (with its & escaped)", () => {
    const response = new twilio.twiml.VoiceResponse();
    response.say("Connecting you.");
    const dial = response.dial({ callerId: "+15005550006", action: `${APP}/voice/status`, method: "POST", timeout: 25 });
    dial.number({ url: `${APP}/voice/whisper?leg=abc&step=ring`, method: "POST" }, "+14155550100");

    expect(parseTwiml(response.toString())).toEqual([
      { verb: "Say", text: "Connecting you." },
      {
        verb: "Dial",
        action: `${APP}/voice/status`,
        method: "POST",
        timeout: 25,
        callerId: "+15005550006",
        numbers: [{ number: "+14155550100", url: `${APP}/voice/whisper?leg=abc&step=ring`, method: "POST" }],
      },
    ]);
  });

  it("reads a bare Dial number, Twilio's defaults (POST, 30 s, 5 s, #) and an empty Response", () => {
    expect(parseTwiml("<Response><Dial>+14155550100</Dial><Gather/></Response>")).toEqual([
      { verb: "Dial", method: "POST", timeout: 30, numbers: [{ number: "+14155550100", method: "POST" }] },
      { verb: "Gather", method: "POST", finishOnKey: "#", timeout: 5, prompts: [] },
    ]);
    expect(parseTwiml(new twilio.twiml.VoiceResponse().toString())).toEqual([]);
    expect(parseTwiml(new twilio.twiml.MessagingResponse().toString())).toEqual([]);
  });

  it("reads the Messages of a MessagingResponse, a Body element included", () => {
    const response = new twilio.twiml.MessagingResponse();
    response.message("Sent to the owner of “Rex”.");
    response.message({ to: "+14155550100" }, "").body("Line one\nline two");
    expect(parseTwiml(response.toString())).toEqual([
      { verb: "Message", body: "Sent to the owner of “Rex”." },
      { verb: "Message", body: "Line one\nline two", to: "+14155550100" },
    ]);
  });

  it("keeps unknown verbs as unknown (the network skips them) and reads comments, CDATA and numeric entities", () => {
    const xml = `<?xml version="1.0"?><!-- a comment --><Response><Record maxLength="20"/><Say><![CDATA[a < b]]> &#72;&#x69;</Say><Pay><Prompt/></Pay></Response>`;
    expect(parseTwiml(xml)).toEqual([
      { verb: "unknown", name: "Record" },
      { verb: "Say", text: "a < b Hi" },
      { verb: "unknown", name: "Pay" },
    ]);
  });

  it("refuses what is not TwiML: another root, broken XML, a DOCTYPE, an unknown entity", () => {
    expect(() => parseTwiml("<html><body>Oops</body></html>")).toThrow(TwimlError);
    expect(() => parseTwiml('{"success":false}')).toThrow(TwimlError);
    expect(() => parseTwiml("<Response><Say>open")).toThrow(TwimlError);
    expect(() => parseTwiml("<Response><Say></Hangup></Response>")).toThrow(TwimlError);
    expect(() => parseTwiml('<!DOCTYPE x [<!ENTITY a "b">]><Response/>')).toThrow(TwimlError);
    expect(() => parseTwiml("<Response><Say>&bogus;</Say></Response>")).toThrow(TwimlError);
    expect(() => parseTwiml("<Response/><Response/>")).toThrow(TwimlError);
    expect(() => parseTwiml("")).toThrow(TwimlError);
  });

  it("parseXml keeps attributes in single or double quotes and nested children in order", () => {
    expect(parseXml(`<a x='1' y = "2"><b/>text<c>in</c></a>`)).toEqual({
      name: "a",
      attributes: { x: "1", y: "2" },
      children: [{ name: "b", attributes: {}, children: [] }, "text", { name: "c", attributes: {}, children: ["in"] }],
    });
  });
});

describe("gatheredDigits takes keys as a Gather does", () => {
  it("stops at the finish key and at numDigits, and keeps only keypad keys", () => {
    expect(gatheredDigits("123456", { numDigits: 6, finishOnKey: "#" })).toBe("123456");
    expect(gatheredDigits("1234567", { numDigits: 6, finishOnKey: "#" })).toBe("123456");
    expect(gatheredDigits("12#34", { numDigits: 6, finishOnKey: "#" })).toBe("12");
    expect(gatheredDigits(" 1-2 3 ", { finishOnKey: "#" })).toBe("123");
    expect(gatheredDigits("1", { numDigits: 1, finishOnKey: "" })).toBe("1");
  });
});
