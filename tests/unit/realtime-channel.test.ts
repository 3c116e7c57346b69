import { describe, expect, it } from "vitest";
import { parseCredentialRevocation, parseNotificationSignal } from "@/lib/realtime/channel";

const USER = "8d7f8c1e-5b7a-4d0e-9c61-3f3f2d1a9b10";
const NOTIFICATION = "1f0c2a4e-7d3b-4e8a-b1c2-9a8b7c6d5e4f";

describe("parseNotificationSignal", () => {
  it("reads the user and the notification of a `<userId>:<notificationId>` payload", () => {
    expect(parseNotificationSignal(`${USER}:${NOTIFICATION}`)).toEqual({ userId: USER, notificationId: NOTIFICATION });
  });

  it("still reads a bare notification id (the form an instance of the earlier version sends during a rolling release)", () => {
    expect(parseNotificationSignal(NOTIFICATION)).toEqual({ notificationId: NOTIFICATION });
  });

  it("refuses anything malformed", () => {
    for (const payload of ["", ":", `${USER}:`, `:${NOTIFICATION}`, `${USER}:${NOTIFICATION}:x`, "not-a-uuid", `${USER};${NOTIFICATION}`, `${USER}:${NOTIFICATION}\u0000`]) {
      expect(parseNotificationSignal(payload), payload).toBeUndefined();
    }
  });
});

describe("parseCredentialRevocation", () => {
  it("reads the kind and keeps only well-formed ids", () => {
    expect(parseCredentialRevocation(`session:${USER},nope,${NOTIFICATION}`)).toEqual({ kind: "session", ids: [USER, NOTIFICATION] });
    expect(parseCredentialRevocation(`api-key:${USER}`)).toEqual({ kind: "api-key", ids: [USER] });
    expect(parseCredentialRevocation(`other:${USER}`)).toBeUndefined();
    expect(parseCredentialRevocation("session:")).toBeUndefined();
  });
});
