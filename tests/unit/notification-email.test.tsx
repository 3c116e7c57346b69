import { describe, expect, it } from "vitest";
import { notificationType } from "@/db/schema";
import { NotificationEmail } from "@/emails/notification";
import { renderEmail } from "@/lib/email/render";
import { notificationAction } from "@/lib/services/notifications/actions";

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
    // Every notification e-mail links to the settings that decide what is mailed.
    for (const part of [security.html, security.text, scan.html, scan.text]) expect(part).toContain("http://localhost:3000/dashboard/notifications/preferences");
    expect(scan.html).toContain("Change which notifications you get by e-mail");
  });
});

describe("notificationAction", () => {
  const tagId = "0b0e7e36-3c1f-4a5e-9d3e-2f1a6c8b9d10";

  it("leads a tag event to that tag, and other types to their area", () => {
    expect(notificationAction("TAG_STATUS_CHANGED", { tagId, transferId: "t", transferStatus: "DECLINED" })).toEqual({ label: "Open the tag", path: `/dashboard/tags/${tagId}` });
    expect(notificationAction("TAG_SCANNED", { tagId: tagId.toUpperCase() })).toEqual({ label: "See where it was scanned", path: `/dashboard/tags/${tagId}` });
    expect(notificationAction("SECURITY", { tagId })).toEqual({ label: "Review your account security", path: "/dashboard/account/sessions" });
    expect(notificationAction("MESSAGE_RECEIVED")).toEqual({ label: "Read and reply", path: "/dashboard/messages" });
    const threadId = "7a1d2c3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    expect(notificationAction("MESSAGE_RECEIVED", { threadId, tagId })).toEqual({ label: "Read and reply", path: `/dashboard/messages/${threadId}` });
    expect(notificationAction("MESSAGE_RECEIVED", { threadId: "../../admin" })).toEqual({ label: "Read and reply", path: "/dashboard/messages" });
    expect(notificationAction("REWARD_UPDATED", { tagId, rewardId: tagId })).toEqual({ label: "Open your rewards", path: "/dashboard/rewards" });
  });

  it("leads transfers to the transfers page, also when the tag has left the account", () => {
    expect(notificationAction("TRANSFER_RECEIVED", { tagId, transferId: "t" })).toEqual({ label: "Open your transfers", path: "/dashboard/tags/transfers" });
    expect(notificationAction("TAG_STATUS_CHANGED", { tagId, transferId: "t", transferStatus: "ACCEPTED" })).toEqual({ label: "Open your transfers", path: "/dashboard/tags/transfers" });
  });

  it("never builds a path from a tag id that is not a UUID", () => {
    expect(notificationAction("TAG_SCANNED", { tagId: "../../admin" })).toEqual({ label: "See where it was scanned", path: "/dashboard/tags" });
    expect(notificationAction("TAG_SCANNED", { tagId: 42 })).toEqual({ label: "See where it was scanned", path: "/dashboard/tags" });
  });

  it("is the e-mail's button", async () => {
    const { html } = await renderEmail(<NotificationEmail type="TAG_STATUS_CHANGED" title="Declined" body="Declined." data={{ tagId, transferId: "t", transferStatus: "DECLINED" }} />, "Declined");
    expect(html).toContain(`http://localhost:3000/dashboard/tags/${tagId}`);
    expect(html).toContain("Open the tag");
  });

  it("opens the notification (marking it read) on the way when the e-mail knows its id", async () => {
    const id = "5d1c7f0e-8a8b-4c1e-9f43-0f6f9d3f1a22";
    const { html, text } = await renderEmail(<NotificationEmail type="TAG_SCANNED" title="Scanned" body="Scanned." data={{ tagId }} notificationId={id} />, "Scanned");
    for (const part of [html, text]) expect(part).toContain(`http://localhost:3000/dashboard/notifications/${id}/open`);
    expect(html).toContain("See where it was scanned");
  });
});
