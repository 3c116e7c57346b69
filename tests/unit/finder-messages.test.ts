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
