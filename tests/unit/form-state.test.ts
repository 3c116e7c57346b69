import { describe, expect, it } from "vitest";
import { errorsOutsideFields } from "@/components/forms/form-state";

describe("errorsOutsideFields", () => {
  it("keeps only the messages for names the form has no input for", () => {
    const state = { status: "error" as const, fieldErrors: { email: ["Enter your e-mail."], token: ["This link is invalid."], code: ["Bad.", "Used."] } };
    expect(errorsOutsideFields(state, ["email"])).toEqual(["This link is invalid.", "Bad.", "Used."]);
    expect(errorsOutsideFields(state, ["email", "token", "code"])).toEqual([]);
    expect(errorsOutsideFields({ status: "idle" }, ["email"])).toEqual([]);
  });
});
