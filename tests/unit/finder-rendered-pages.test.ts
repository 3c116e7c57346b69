import { describe, expect, it } from "vitest";
import { RenderedPages } from "@/lib/finder-page/rendered-pages";

describe("the finder page's rendered pages", () => {
  it("renders a key once and answers the same bytes after", () => {
    const pages = new RenderedPages(1_000_000);
    let renders = 0;
    const render = () => `<p>page ${++renders}</p>`;
    const first = pages.get("a", render);
    const again = pages.get("a", render);
    expect(renders).toBe(1);
    expect(again).toBe(first);
    expect(new TextDecoder().decode(first)).toBe("<p>page 1</p>");
  });

  it("stays within its byte bound, dropping the least recently used page first", () => {
    const page = "x".repeat(1000);
    const pages = new RenderedPages(3_500);
    for (const key of ["a", "b", "c"]) pages.get(key, () => page);
    pages.get("a", () => page); // a is now the most recently used
    pages.get("d", () => page);
    expect(pages.heldBytes).toBeLessThanOrEqual(3_500);
    let rendered = false;
    pages.get("a", () => ((rendered = true), page));
    expect(rendered).toBe(false);
    pages.get("b", () => ((rendered = true), page));
    expect(rendered).toBe(true);
  });

  it("keeps a page larger than the whole bound only while it is the newest", () => {
    const pages = new RenderedPages(100);
    pages.get("big", () => "y".repeat(1000));
    expect(pages.size).toBe(1);
    pages.get("next", () => "z");
    expect(pages.size).toBe(1);
  });
});
