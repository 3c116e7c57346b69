import { describe, expect, it } from "vitest";
import { renderEmail } from "@/lib/email/render";
import { extractLinks } from "@/lib/email/mailbox";
import { NoticeEmail } from "@/emails/notice";
import { EmailLayout } from "@/emails/components/email-layout";
import { ActionLink } from "@/emails/components/action-link";
import { SERVICE_NAME } from "@/emails/brand";
import { env } from "@/lib/env";

const appUrl = env.APP_URL.replace(/\/+$/, "");

describe("renderEmail", () => {
  it("produces an HTML part and a plain-text part with the subject", async () => {
    const rendered = await renderEmail(<NoticeEmail heading="Your tag was scanned" paragraphs={["Someone scanned your keys.", "Nothing else to do."]} />, "Tag scanned");
    expect(rendered.subject).toBe("Tag scanned");
    expect(rendered.html).toMatch(/^<!DOCTYPE html/);
    expect(rendered.html).toContain('<html dir="ltr" lang="en">');
    expect(rendered.html).toContain("<h1");
    expect(rendered.html).toContain("Someone scanned your keys.");
    expect(rendered.text).toContain("Your tag was scanned");
    expect(rendered.text).toContain("Someone scanned your keys.");
    expect(rendered.text).toContain("Nothing else to do.");
    expect(rendered.text).not.toMatch(/<[a-z!]/i);
  });

  it("keeps the heading's case in the text part", async () => {
    const { text } = await renderEmail(<NoticeEmail heading="Welcome aboard" paragraphs={["Hi."]} />, "Welcome");
    expect(text).toContain("Welcome aboard");
    expect(text).not.toContain("WELCOME ABOARD");
  });

  it("puts a token link as an absolute ?token= URL in both the HTML and the text", async () => {
    const rendered = await renderEmail(
      <NoticeEmail heading="Verify your e-mail" paragraphs={["Confirm your address."]} action={{ label: "Verify e-mail", path: "/verify-email", token: "abc" }} />,
      "Verify your e-mail",
    );
    const url = `${appUrl}/verify-email?token=abc`;
    expect(rendered.html).toContain(`href="${url}"`);
    // Written out in full for clients that do not show buttons.
    expect(rendered.html).toContain(`>${url}</a>`);
    expect(rendered.text).toContain(`Verify e-mail ${url}`);
    // The written-out copy is HTML-only: the text part carries the URL once.
    expect(rendered.text.split(url)).toHaveLength(2);
    expect(extractLinks(rendered)).toContain(url);
  });

  it("URL-encodes a token and keeps extra parameters", async () => {
    const { html, text } = await renderEmail(<ActionLink label="Reset" path="/reset-password" token="a+b/c=" params={{ lang: "en" }} />, "x");
    const url = `${appUrl}/reset-password?token=a%2Bb%2Fc%3D&lang=en`;
    expect(text).toContain(url);
    expect(html).toContain(`href="${url.replace("&", "&amp;")}"`);
  });

  it("wraps content in the layout: brand, footer with the service name and APP_URL, preview line", async () => {
    const { html, text } = await renderEmail(
      <EmailLayout preview="Preview line" reason="You receive this because you have an account.">
        <p>Body</p>
      </EmailLayout>,
      "x",
    );
    expect(html).toContain(`>${SERVICE_NAME}</a>`);
    expect(html).toContain(`href="${appUrl}"`);
    expect(html).toContain("Preview line");
    expect(html).toContain("You receive this because you have an account.");
    expect(text).toContain(`${SERVICE_NAME} · ${appUrl}`);
    expect(text).toContain("You receive this because you have an account.");
    // The preview line is for the inbox list only.
    expect(text).not.toContain("Preview line");
  });

  it("uses a given appUrl for the brand, footer and action link", async () => {
    const { html, text } = await renderEmail(
      <NoticeEmail appUrl="https://tags.example.com/app" heading="H" paragraphs={["P"]} action={{ label: "Go", path: "/thread/x", token: "t1" }} />,
      "x",
    );
    expect(html).toContain('href="https://tags.example.com/app"');
    expect(text).toContain("Go https://tags.example.com/app/thread/x?token=t1");
  });
});
