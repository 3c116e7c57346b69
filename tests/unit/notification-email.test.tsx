import { describe, expect, it } from "vitest";
import { notificationType } from "@/db/schema";
import { NotificationEmail } from "@/emails/notification";
import { renderEmail } from "@/lib/email/render";

describe("notification e-mail", () => {
  it("renders every type with its words and a link to act on it, in HTML and text", async () => {
    for (const type of notificationType.enumValues) {
      const { html, text, subject } = await renderEmail(<NotificationEmail type={type} title={`Title ${type}`} body={`Body of ${type}`} />, `Title ${type}`);
      expect(subject).toBe(`Title ${type}`);
      for (const part of [html, text]) {
        expect(part, type).toContain(`Title ${type}`);
        expect(part, type).toContain(`Body of ${type}`);
        expect(part, type).toMatch(/http:\/\/localhost:3000\/dashboard\//);
      }
    }
  });

  it("says security and payment mail is always sent, and the rest follows the settings", async () => {
    const security = await renderEmail(<NotificationEmail type="SECURITY" title="New sign-in" body="A new device signed in." />, "New sign-in");
    expect(security.text).toContain("always sent");
    const scan = await renderEmail(<NotificationEmail type="TAG_SCANNED" title="Scanned" body="Your tag was scanned." />, "Scanned");
    expect(scan.text).toContain("notification settings");
    expect(scan.html).toContain("/dashboard/tags");
  });
});
