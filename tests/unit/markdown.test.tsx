import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { isAllowedImageSource, Markdown } from "@/components/content/markdown";

const render = (source: string) => renderToStaticMarkup(<Markdown source={source} />);

/** Every href and src the rendered HTML carries. */
function urls(html: string): string[] {
  return [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((match) => match[1]!);
}

/**
 * What no rendering of admin Markdown may ever contain. Raw HTML is left out, or comes out as escaped text
 * (`&lt;img …`) where Markdown does not take it for HTML, which is harmless; these look at real elements
 * and their attributes only.
 */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<svg/i);
  expect(html).not.toMatch(/<iframe/i);
  expect(html).not.toMatch(/<style/i);
  expect(html).not.toMatch(/<[a-z][^>]*\s(on[a-z]+|style)=/i);
  for (const url of urls(html)) expect(url, url).not.toMatch(/^\s*(javascript|data|vbscript):/i);
}

describe("Markdown (the one sanitising renderer)", () => {
  it("renders headings, lists, emphasis, tables and links", () => {
    const html = render("## Lost mode\n\n- **one**\n- *two*\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n[the shop](/shop) and [EFF](https://eff.org)");
    expect(html).toContain("<h2>Lost mode</h2>");
    expect(html).toContain("<li><strong>one</strong></li>");
    expect(html).toContain("<table>");
    expect(html).toContain('<a href="/shop">the shop</a>');
    expect(html).toContain('<a href="https://eff.org" rel="noopener noreferrer nofollow">EFF</a>');
  });

  it("never turns raw HTML into markup: script, event handlers, iframes, SVG", () => {
    for (const source of [
      "<script>alert(1)</script>",
      "Hello <script src=https://evil.example/x.js></script> world",
      '<img src="x" onerror="alert(1)">',
      '<img src=x onerror=alert(1)//>',
      "<svg onload=alert(1)><circle r=1 /></svg>",
      '<svg><script>alert(1)</script></svg>',
      '<iframe src="javascript:alert(1)"></iframe>',
      '<a href="javascript:alert(1)">click</a>',
      '<div style="background:url(javascript:alert(1))">x</div>',
      '<details open ontoggle=alert(1)>',
      '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
    ]) {
      const html = render(source);
      expectInert(html);
    }
  });

  it("empties javascript:, data: and vbscript: links, in any case, spacing or entity encoding", () => {
    for (const href of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "JAVASCRIPT:alert(1)",
      " javascript:alert(1)",
      "&#106;avascript:alert(1)",
      "&#x6A;avascript:alert(1)",
      "javascript&#58;alert(1)",
      "java&#x09;script:alert(1)",
      "vbscript:msgbox(1)",
      "VBScript:msgbox(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "DATA:text/html,<script>alert(1)</script>",
    ]) {
      const html = render(`[click](${href}) and <${href}> and [ref][r]\n\n[r]: ${href}`);
      expectInert(html);
      expect(html, href).toContain("click");
    }
  });

  it("keeps safe links: https, http, mailto, relative", () => {
    const html = render("[a](https://example.com/x) [b](http://example.com) [c](mailto:jobs@example.com) [d](/careers) [e](#top)");
    expect(urls(html)).toEqual(["https://example.com/x", "http://example.com", "mailto:jobs@example.com", "/careers", "#top"]);
  });

  it("keeps https and same-origin images, drops http, data: (SVG too), javascript: and protocol-relative ones", () => {
    const html = render(
      [
        "![https](https://images.example.com/a.png)",
        "![local](/blog/lost-mode.svg)",
        "![insecure](http://images.example.com/b.png)",
        "![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+PC9zdmc+)",
        "![svg2](data:image/svg+xml,<svg onload=alert(1)>)",
        "![png](data:image/png;base64,iVBORw0KGgo=)",
        "![js](javascript:alert(1))",
        "![relative](//evil.example/c.png)",
        "![backslash](/\\evil.example/d.png)",
      ].join("\n\n"),
    );
    // The backslash reaches the page percent-encoded: a path on this origin, not another host.
    expect(urls(html)).toEqual(["https://images.example.com/a.png", "/blog/lost-mode.svg", "/%5Cevil.example/d.png"]);
    expect(html).toContain('alt="https"');
    expect(html).toContain('alt="local"');
    expect(html).not.toContain("insecure");
    expectInert(html);
  });

  it("isAllowedImageSource: https or a path on this origin only", () => {
    expect(isAllowedImageSource("https://x.example/a.png")).toBe(true);
    expect(isAllowedImageSource("/blog/a.svg")).toBe(true);
    for (const source of ["http://x.example/a.png", "HTTP://x.example/a.png", "//x.example/a.png", "/\\x.example", "data:image/svg+xml,<svg/>", "javascript:alert(1)", "blob:https://x/1", "a.png", ""]) {
      expect(isAllowedImageSource(source), source).toBe(false);
    }
  });
});
