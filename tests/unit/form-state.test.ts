import { describe, expect, it } from "vitest";
import { errorsOutsideFields, formText } from "@/lib/forms/form-state";

describe("errorsOutsideFields", () => {
  it("keeps only the messages for names the form has no input for", () => {
    const state = { status: "error" as const, fieldErrors: { email: ["Enter your e-mail."], token: ["This link is invalid."], code: ["Bad.", "Used."] } };
    expect(errorsOutsideFields(state, ["email"])).toEqual(["This link is invalid.", "Bad.", "Used."]);
    expect(errorsOutsideFields(state, ["email", "token", "code"])).toEqual([]);
    expect(errorsOutsideFields({ status: "idle" }, ["email"])).toEqual([]);
  });
});

describe("formText", () => {
  it("drops control characters a forged post carries, keeping tab and newlines", () => {
    const form = new FormData();
    form.set("name", "Ada\u0000 Love\u0007lace");
    form.set("note", "line one\r\nline\ttwo");
    expect(formText(form, "name")).toBe("Ada Lovelace");
    expect(formText(form, "note")).toBe("line one\r\nline\ttwo");
    expect(formText(form, "missing")).toBe("");
  });
});
