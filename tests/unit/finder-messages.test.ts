import { describe, expect, it } from "vitest";
import de from "@/messages/de.json";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import fr from "@/messages/fr.json";

type Tree = { [key: string]: string | Tree };

/** Every message as path → text. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === "string") out.set(prefix + key, value);
    else for (const [path, text] of flatten(value, `${prefix}${key}.`)) out.set(path, text);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe("finder page translations", () => {
  const english = flatten(en as Tree);
  it.each([
    ["es", es],
    ["fr", fr],
    ["de", de],
  ])("%s has every English message, with the same placeholders, and nothing left in English by mistake", (_, messages) => {
    const translated = flatten(messages as Tree);
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [path, text] of english) {
      expect(placeholders(translated.get(path)!), path).toEqual(placeholders(text));
      expect(translated.get(path)!.trim(), path).not.toBe("");
    }
    const identical = [...english].filter(([path, text]) => translated.get(path) === text && text.length > 12).map(([path]) => path);
    expect(identical).toEqual([]);
  });
});

describe("finder page translations keep one register and agree in gender", () => {
  const words = (messages: Tree) => [...flatten(messages)].map(([path, text]) => [path, text.toLowerCase()] as const);
  // German speaks to the finder as "Sie", French as "vous", Spanish as "tú": a stray other form reads as a
  // different person talking, mid-page.
  it.each([
    ["de", de, /\b(du|dich|dir|dein|deine|deinen|deinem|deiner|euch|euer)\b/],
    ["fr", fr, /\b(tu|toi|ton|tes)\b/],
    ["es", es, /\b(usted|ustedes|vosotros|vuestro|vuestra|os|quedad|escribid|dad)\b/],
  ])("%s keeps one form of address", (_, messages, otherForm) => {
    expect(words(messages as Tree).filter(([, text]) => otherForm.test(text)).map(([path]) => path)).toEqual([]);
  });

  it("German refers to the Finderlohn (masculine) as ihn", () => {
    expect(de.Finder.rewardHowTo).toMatch(/^Der Besitzer zahlt ihn\b/);
  });
});
