/**
 * Reading TwiML as Twilio does, for the test telephony network (lib/telephony/test-network.ts,
 * docs/relay.md "The development phone"). TwiML is a small XML vocabulary; this reads the XML the twilio
 * SDK writes (a declaration, elements with quoted attributes, text, the five named entities and numeric
 * ones, comments, CDATA) into plain verbs. The verbs the relay uses are typed; any other verb is kept as
 * `unknown` so the interpreter can skip it, and a document that is not TwiML is an error.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export class TwimlError extends Error {}

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, entity: string) => {
    if (entity.startsWith("#x")) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith("#")) return String.fromCodePoint(Number.parseInt(entity.slice(1), 10));
    const named = NAMED_ENTITIES[entity];
    if (named === undefined) throw new TwimlError(`unknown entity ${whole}`);
    return named;
  });
}

const NAME = /^[A-Za-z_][\w.-]*/;

/** Parses one XML document into its root element (throws TwimlError on malformed XML). */
export function parseXml(xml: string): XmlElement {
  let at = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;

  const fail = (what: string): never => {
    throw new TwimlError(`${what} at offset ${at}`);
  };
  const append = (node: XmlNode) => {
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else if (typeof node === "string") {
      if (node.trim()) fail("text outside the root element");
    } else if (root) fail("a second root element");
    else root = node;
  };

  while (at < xml.length) {
    if (xml.startsWith("<?", at)) {
      const end = xml.indexOf("?>", at);
      if (end < 0) fail("an unterminated declaration");
      at = end + 2;
    } else if (xml.startsWith("<!--", at)) {
      const end = xml.indexOf("-->", at);
      if (end < 0) fail("an unterminated comment");
      at = end + 3;
    } else if (xml.startsWith("<![CDATA[", at)) {
      const end = xml.indexOf("]]>", at);
      if (end < 0) fail("an unterminated CDATA section");
      append(xml.slice(at + 9, end));
      at = end + 3;
    } else if (xml.startsWith("<!", at)) {
      fail("a document type declaration (not allowed)");
    } else if (xml.startsWith("</", at)) {
      const name = NAME.exec(xml.slice(at + 2))?.[0] ?? fail("a closing tag without a name");
      const open = stack.pop();
      if (!open || open.name !== name) fail(`</${name}> closes ${open ? `<${open.name}>` : "nothing"}`);
      at += 2 + name.length;
      while (/\s/.test(xml[at] ?? "")) at++;
      if (xml[at] !== ">") fail("a malformed closing tag");
      at++;
      if (stack.length === 0) append(open!);
      // A nested element was attached to its parent when it opened.
    } else if (xml[at] === "<") {
      const name = NAME.exec(xml.slice(at + 1))?.[0] ?? fail("a tag without a name");
      at += 1 + name.length;
      const element: XmlElement = { name, attributes: {}, children: [] };
      for (;;) {
        while (/\s/.test(xml[at] ?? "")) at++;
        if (xml.startsWith("/>", at)) {
          at += 2;
          append(element);
          break;
        }
        if (xml[at] === ">") {
          at++;
          if (stack.length) append(element);
          stack.push(element);
          break;
        }
        const attribute = NAME.exec(xml.slice(at))?.[0] ?? fail(`a malformed attribute in <${name}>`);
        at += attribute.length;
        while (/\s/.test(xml[at] ?? "")) at++;
        if (xml[at] !== "=") fail(`attribute ${attribute} without a value`);
        at++;
        while (/\s/.test(xml[at] ?? "")) at++;
        const quote = xml[at];
        if (quote !== '"' && quote !== "'") fail(`attribute ${attribute} without quotes`);
        const end = xml.indexOf(quote!, at + 1);
        if (end < 0) fail(`attribute ${attribute} unterminated`);
        element.attributes[attribute] = decodeEntities(xml.slice(at + 1, end));
        at = end + 1;
      }
    } else {
      const end = xml.indexOf("<", at);
      append(decodeEntities(xml.slice(at, end < 0 ? xml.length : end)));
      at = end < 0 ? xml.length : end;
    }
  }
  if (stack.length) fail(`<${stack[stack.length - 1]!.name}> is never closed`);
  return root ?? fail("no root element");
}

/** A TwiML verb as the network acts on it. */
export type Verb =
  | { verb: "Say"; text: string; language?: string }
  | { verb: "Play"; url: string }
  | { verb: "Pause"; seconds: number }
  | { verb: "Gather"; action?: string; method: string; numDigits?: number; finishOnKey: string; timeout: number; prompts: Verb[] }
  | { verb: "Dial"; action?: string; method: string; timeout: number; callerId?: string; numbers: DialNumber[] }
  | { verb: "Hangup" }
  | { verb: "Reject"; reason: string }
  | { verb: "Redirect"; url: string; method: string }
  | { verb: "Message"; body: string; to?: string }
  | { verb: "unknown"; name: string };

export interface DialNumber {
  number: string;
  /** The whisper: TwiML run on the called party's leg before the two are bridged. */
  url?: string;
  method: string;
}

const textOf = (element: XmlElement): string =>
  element.children
    .map((child) => (typeof child === "string" ? child : child.name === "Body" ? textOf(child) : ""))
    .join("")
    .trim();

const elements = (element: XmlElement): XmlElement[] => element.children.filter((child): child is XmlElement => typeof child !== "string");

/** An attribute as a whole number, or `fallback` when absent or not one (Twilio uses its default then). */
function whole(value: string | undefined, fallback: number): number {
  if (value === undefined || !/^\d+$/.test(value.trim())) return fallback;
  return Number.parseInt(value, 10);
}

const method = (value: string | undefined) => (value?.toUpperCase() === "GET" ? "GET" : "POST");

function verbOf(element: XmlElement): Verb {
  const a = element.attributes;
  switch (element.name) {
    case "Say":
      return { verb: "Say", text: textOf(element), ...(a.language ? { language: a.language } : {}) };
    case "Play":
      return { verb: "Play", url: textOf(element) };
    case "Pause":
      return { verb: "Pause", seconds: whole(a.length, 1) };
    case "Gather": {
      const numDigits = a.numDigits === undefined ? undefined : whole(a.numDigits, 0) || undefined;
      const prompts = elements(element)
        .map(verbOf)
        .filter((verb) => verb.verb === "Say" || verb.verb === "Play" || verb.verb === "Pause");
      return { verb: "Gather", ...(a.action ? { action: a.action } : {}), method: method(a.method), ...(numDigits ? { numDigits } : {}), finishOnKey: a.finishOnKey ?? "#", timeout: whole(a.timeout, 5), prompts };
    }
    case "Dial": {
      const nouns = elements(element);
      const numbers: DialNumber[] = nouns
        .filter((noun) => noun.name === "Number")
        .map((noun) => ({ number: textOf(noun), ...(noun.attributes.url ? { url: noun.attributes.url } : {}), method: method(noun.attributes.method) }));
      const bare = element.children.filter((child): child is string => typeof child === "string").join("").trim();
      if (bare && nouns.length === 0) numbers.push({ number: bare, method: "POST" });
      return { verb: "Dial", ...(a.action ? { action: a.action } : {}), method: method(a.method), timeout: whole(a.timeout, 30), ...(a.callerId ? { callerId: a.callerId } : {}), numbers };
    }
    case "Hangup":
      return { verb: "Hangup" };
    case "Reject":
      return { verb: "Reject", reason: a.reason === "busy" ? "busy" : "rejected" };
    case "Redirect":
      return { verb: "Redirect", url: textOf(element), method: method(a.method) };
    case "Message":
      return { verb: "Message", body: textOf(element), ...(a.to ? { to: a.to } : {}) };
    default:
      return { verb: "unknown", name: element.name };
  }
}

/** The verbs of a TwiML document, in order (throws TwimlError when it is not XML with a <Response> root). */
export function parseTwiml(xml: string): Verb[] {
  const root = parseXml(xml);
  if (root.name !== "Response") throw new TwimlError(`the root element is <${root.name}>, not <Response>`);
  return elements(root).map(verbOf);
}
