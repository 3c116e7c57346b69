import { describe, expect, it } from "vitest";
import { positionFormInput } from "@/app/(admin)/admin/careers/position-form";
import { postFormInput, tagList } from "@/app/(admin)/admin/blog/post-form";
import { xmlEscape } from "@/lib/feeds/blog-rss";
import { createPositionInput, createPostInput, isAllowedApplyUrl, postSlug, updatePostInput } from "@/lib/services/content";

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

describe("the post editor's fields", () => {
  it("reads tags by commas, a blank cover as none, the checkbox as published, and drops control characters", () => {
    const input = postFormInput(form({ title: " Lost mode\u0000 ", slug: "", excerpt: "Short.", content: "## Hi\n\n- a", coverImage: " ", tags: "lost, , privacy ,lost", published: "on" }), () => undefined);
    expect(input).toEqual({ title: "Lost mode", excerpt: "Short.", content: "## Hi\n\n- a", coverImage: null, tags: ["lost", "privacy", "lost"], published: true });
    expect(createPostInput.parse(input)).toMatchObject({ tags: ["lost", "privacy"], coverImage: null, published: true });
  });

  it("a blank slug on an existing post is the title's", () => {
    const input = postFormInput(form({ title: "Crème brûlée", slug: "", excerpt: "x", content: "y", tags: "" }), (title) => postSlug(title));
    expect(updatePostInput.parse(input)).toMatchObject({ slug: "creme-brulee", published: false, tags: [] });
    expect(tagList(" a ,b,, c ")).toEqual(["a", "b", "c"]);
  });
});

describe("the position editor's fields", () => {
  it("reads requirements and benefits one per line", () => {
    const input = positionFormInput(form({ title: "Designer", department: "Design", location: "Remote", type: "CONTRACT", description: "Hi", requirements: "One\r\n\n  Two  \n", benefits: "", applyUrl: "https://jobs.example.com/a" }));
    expect(createPositionInput.parse(input)).toMatchObject({ requirements: ["One", "Two"], benefits: [], open: false, type: "CONTRACT" });
  });
});

describe("slugs, apply addresses and XML", () => {
  it("postSlug folds accents and punctuation, and falls back to 'post'", () => {
    expect(postSlug("NFC or QR? Choosing the right tag!")).toBe("nfc-or-qr-choosing-the-right-tag");
    expect(postSlug("Ça coûte combien ?")).toBe("ca-coute-combien");
    expect(postSlug("🎉🎉")).toBe("post");
  });

  it("apply addresses are https or mailto with an address", () => {
    for (const ok of ["https://jobs.example.com/x", "mailto:jobs@example.com", "mailto:jobs@example.com?subject=Hi", "MAILTO:jobs@example.com"]) expect(isAllowedApplyUrl(ok), ok).toBe(true);
    for (const bad of ["http://jobs.example.com", "javascript:alert(1)", "mailto:nobody", "https://u:p@example.com", "/apply", "ftp://x.example", "https://exa mple.com"]) expect(isAllowedApplyUrl(bad), bad).toBe(false);
  });

  it("xmlEscape escapes the five characters and drops what XML cannot carry", () => {
    expect(xmlEscape(`<a href="x">Tom & Jerry's</a>\u0001\u000B`)).toBe("&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;");
  });
});
