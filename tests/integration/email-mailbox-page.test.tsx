import { beforeEach, describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { getDatabase } from "@/db/client";
import { emailOutbox } from "@/db/schema";
import { deliverEmail } from "@/lib/email/deliver";
import { renderEmail } from "@/lib/email/render";
import { NoticeEmail } from "@/emails/notice";
import { buildActionUrl } from "@/emails/links";
import DevMailboxPage, { dynamic } from "@/app/dev/mailbox/page";

async function renderPage(searchParams: Record<string, string | string[] | undefined> = {}) {
  return renderToStaticMarkup(await DevMailboxPage({ searchParams: Promise.resolve(searchParams) }));
}

async function send(to: string, subject: string, token: string) {
  const rendered = await renderEmail(
    <NoticeEmail heading={subject} paragraphs={[`Hello ${to} & friends <3`]} action={{ label: "Verify e-mail", path: "/verify-email", token }} />,
    subject,
  );
  await deliverEmail({ to, ...rendered, template: "test.notice" });
}

describe("/dev/mailbox page", () => {
  beforeEach(async () => {
    await getDatabase().db.delete(emailOutbox);
  });

  it("is rendered on every request", () => {
    expect(dynamic).toBe("force-dynamic");
  });

  it("lists messages newest first with subject, recipient, time, text and clickable links", async () => {
    await send("ada@example.com", "First message", "tok1");
    await send("grace@example.com", "Second message", "tok2");
    const html = await renderPage();
    expect(html).toContain("<h1");
    expect(html).toContain("2 messages");
    expect(html.indexOf("Second message")).toBeGreaterThan(-1);
    expect(html.indexOf("Second message")).toBeLessThan(html.indexOf("First message"));
    expect(html).toContain("grace@example.com");
    expect(html).toMatch(/<time dateTime="\d{4}-\d{2}-\d{2}T[^"]+Z">/);
    // Text part shown escaped, never as markup.
    expect(html).toContain("Hello ada@example.com &amp; friends &lt;3");
    const link = buildActionUrl("/verify-email", { token: "tok1" });
    expect(html).toContain(`<a href="${link}"`);
    // The HTML part only inside a sandboxed, titled iframe.
    expect(html).toMatch(/<iframe sandbox="" srcDoc="[^"]*" title="HTML version of/);
    expect(html).not.toContain("<!DOCTYPE html");
  });

  it("filters by recipient with a labelled form", async () => {
    await send("ada@example.com", "For Ada", "a");
    await send("grace@example.com", "For Grace", "g");
    const html = await renderPage({ to: "ada@example.com" });
    expect(html).toMatch(/<label for="mailbox-to"[^>]*>Recipient e-mail<\/label>/);
    const input = html.match(/<input id="mailbox-to"[^>]*>/)?.[0] ?? "";
    expect(input).toContain('type="email"');
    expect(input).toContain('name="to"');
    expect(input).toContain('value="ada@example.com"');
    expect(html).toMatch(/<button type="submit"[^>]*>Filter<\/button>/);
    expect(html).toContain("1 message for ada@example.com");
    expect(html).toContain("For Ada");
    expect(html).not.toContain("For Grace");
    expect(html).toContain('href="/dev/mailbox"');
  });

  it("says so when there is nothing", async () => {
    const html = await renderPage({ to: "nobody@example.com" });
    expect(html).toContain("No messages for nobody@example.com");
    expect(html).not.toContain("<ol");
  });
});
