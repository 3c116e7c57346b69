/** A TwiML answer as a tree, read by a small XML reader (elements, attributes, text; no DTD, no CDATA): what the tests assert on. */
export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const decode = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");

export function parseXml(xml: string): XmlNode {
  const body = xml.replace(/^<\?xml[^>]*\?>/, "").trim();
  const root: XmlNode = { name: "#document", attributes: {}, children: [], text: "" };
  const stack: XmlNode[] = [root];
  const token = /<\/([\w:-]+)\s*>|<([\w:-]+)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = token.exec(body))) {
    if (match.index !== consumed) throw new Error(`not XML at ${consumed}: ${body.slice(consumed, consumed + 20)}`);
    consumed = token.lastIndex;
    const top = stack[stack.length - 1]!;
    if (match[1]) {
      if (top.name !== match[1]) throw new Error(`</${match[1]}> closes <${top.name}>`);
      stack.pop();
    } else if (match[2]) {
      const attributes: Record<string, string> = {};
      for (const attribute of (match[3] ?? "").matchAll(/([\w:-]+)="([^"]*)"/g)) attributes[attribute[1]!] = decode(attribute[2]!);
      const node: XmlNode = { name: match[2], attributes, children: [], text: "" };
      top.children.push(node);
      if (!match[4]) stack.push(node);
    } else if (match[5]) {
      top.text += decode(match[5]);
    }
  }
  if (consumed !== body.length || stack.length !== 1) throw new Error("unbalanced XML");
  if (root.children.length !== 1) throw new Error("not one root element");
  return root.children[0]!;
}

/** The element names of a node's children, in order. */
export const childNames = (node: XmlNode) => node.children.map((child) => child.name);

export function find(node: XmlNode, name: string): XmlNode | undefined {
  for (const child of node.children) {
    if (child.name === name) return child;
    const inner = find(child, name);
    if (inner) return inner;
  }
  return undefined;
}
