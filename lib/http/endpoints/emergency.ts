import { messageSchema } from "@/lib/services/auth";
import { emergencyAccessSchema, emergencyContactInput, emergencyContactPatch, emergencyContactSchema, emergencyProfileFieldsSchema, emergencyProfileInput, emergencyProfileSchema, MAX_EMERGENCY_CONTACTS, publicEmergencyProfileSchema } from "@/lib/services/emergency";
import { encryptedIdParams, ownerSideEffectNote } from "@/lib/services/scans";
import { defineEndpoint } from "../endpoint";
import { cursorPaginationQuery } from "../pagination";
import { idParams } from "../params";

const emergency = ["Emergency"];


/** The owner's emergency medical profile and contacts, its access log, and the public read for first responders. */
export const emergencyEndpoints = {
  get: defineEndpoint({
    operationId: "getEmergencyProfile",
    method: "GET",
    path: "/api/v1/emergency",
    summary: "Get my emergency profile",
    description:
      "The profile with its contacts (id, name, relationship, phone, email). Before anything was saved it answers the empty profile (null fields, empty lists, no contacts, `updatedAt` null) rather than 404.",
    tags: emergency,
    auth: "user",
    response: emergencyProfileSchema,
  }),
  put: defineEndpoint({
    operationId: "replaceEmergencyProfile",
    method: "PUT",
    path: "/api/v1/emergency",
    summary: "Replace my emergency profile",
    description:
      "PUT replaces: every field is optional, and a field left out (or null) is cleared, lists to `[]`. Send the whole profile as it should read. Contacts are kept (they have their own endpoints). bloodType is one of A+, A-, B+, B-, AB+, AB-, O+, O- (null: not stated); conditions, allergies and medications take up to 20 items of at most 100 characters. Answers the profile's fields without the contacts.",
    tags: emergency,
    auth: "user",
    body: emergencyProfileInput,
    response: emergencyProfileFieldsSchema,
  }),
  addContact: defineEndpoint({
    operationId: "addEmergencyContact",
    method: "POST",
    path: "/api/v1/emergency/contacts",
    summary: "Add an emergency contact",
    description: `At most ${MAX_EMERGENCY_CONTACTS} contacts: one more is 422 with \`{ limit }\`. The e-mail address is shown to you only; first responders see name, relationship and phone.`,
    tags: emergency,
    auth: "user",
    successStatus: 201,
    body: emergencyContactInput,
    response: emergencyContactSchema,
    errors: ["UNPROCESSABLE_ENTITY"],
  }),
  updateContact: defineEndpoint({
    operationId: "updateEmergencyContact",
    method: "PATCH",
    path: "/api/v1/emergency/contacts/{id}",
    summary: "Edit an emergency contact",
    description: "Any subset of name, relationship, phone and email; email null removes it. Another user's contact is 404.",
    tags: emergency,
    auth: "user",
    params: idParams,
    body: emergencyContactPatch,
    response: emergencyContactSchema,
  }),
  deleteContact: defineEndpoint({
    operationId: "deleteEmergencyContact",
    method: "DELETE",
    path: "/api/v1/emergency/contacts/{id}",
    summary: "Remove an emergency contact",
    tags: emergency,
    auth: "user",
    params: idParams,
    response: messageSchema,
  }),
  accesses: defineEndpoint({
    operationId: "listEmergencyAccesses",
    method: "GET",
    path: "/api/v1/emergency/accesses",
    summary: "Who opened my emergency profile",
    description:
      "Every read of the profile through one of your tags' emergency pages, newest first: when, roughly where (from the proxy's geo headers), through which tag, and the reader's browser. The reader's IP is never shown or stored in clear. Not in the specification: added so the access log that every read writes can be reviewed.",
    tags: emergency,
    auth: "user",
    query: cursorPaginationQuery,
    response: emergencyAccessSchema,
    responseKind: "paginated",
  }),
  scan: defineEndpoint({
    operationId: "getScanEmergencyProfile",
    method: "GET",
    path: "/api/v1/scan/{encryptedId}/emergency",
    summary: "Read a tag owner's emergency profile (first responders)",
    description:
      ownerSideEffectNote("every read is logged and the owner is notified at once (EMERGENCY_ACCESSED)") +
      "\n\nPublic, whatever the tag's visibility: blood type, conditions, allergies, medications, physician, instructions, organ donor, and the contacts' name, relationship and phone (no ids, no e-mail, nothing of the owner's account), with ownerName, the name the owner shows finders on this tag. 404 when the tag is unknown, unowned or DEACTIVATED, when the owner does not show emergency information on this tag (emergencyVisible: off by default for PET tags), or when its owner has no emergency information. Every read is logged and the owner is notified at once (EMERGENCY_ACCESSED). 5 requests per minute per IP.",
    tags: ["Scans"],
    auth: "public",
    rateLimit: ["emergencyScan"],
    params: encryptedIdParams,
    response: publicEmergencyProfileSchema,
  }),
};
