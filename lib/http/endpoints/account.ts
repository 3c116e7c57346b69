import { z } from "zod";
import { changePasswordInput, deleteMeInput, messageSchema, updateMeInput, userSchema } from "@/lib/services/auth";
import { defineEndpoint } from "../endpoint";

const accountTags = ["Account"];

/** The signed-in user's own account: read, update, export, delete, change the password. */
export const accountEndpoints = {
  me: defineEndpoint({
    operationId: "getAccount",
    method: "GET",
    path: "/api/v1/auth/me",
    summary: "The signed-in user",
    tags: accountTags,
    auth: "user",
    response: userSchema,
  }),
  updateMe: defineEndpoint({
    operationId: "updateAccount",
    method: "PATCH",
    path: "/api/v1/auth/me",
    summary: "Update name and phone",
    tags: accountTags,
    auth: "user",
    body: updateMeInput,
    response: userSchema.pick({ id: true, email: true, firstName: true, lastName: true, phone: true }),
  }),
  deleteMe: defineEndpoint({
    operationId: "deleteAccount",
    method: "DELETE",
    path: "/api/v1/auth/me",
    summary: "Delete the account",
    description: "Permanently deletes the account and everything it owns, in one transaction. Needs `currentPassword`. Not available to API keys.",
    tags: accountTags,
    auth: "user",
    apiKey: false,
    body: deleteMeInput,
    response: messageSchema,
    errors: ["FORBIDDEN"],
  }),
  exportMe: defineEndpoint({
    operationId: "exportAccount",
    method: "GET",
    path: "/api/v1/auth/me/export",
    summary: "Export my data",
    description: "Everything the account owns, as JSON. Not available to API keys.",
    tags: accountTags,
    auth: "user",
    apiKey: false,
    response: z.object({
      user: userSchema,
      tags: z.array(z.unknown()),
      orders: z.array(z.unknown()),
      messages: z.array(z.unknown()),
      notifications: z.array(z.unknown()),
      exportedAt: z.iso.datetime(),
    }),
    errors: ["FORBIDDEN"],
  }),
  changePassword: defineEndpoint({
    operationId: "changePassword",
    method: "POST",
    path: "/api/v1/auth/change-password",
    summary: "Change the password",
    description: "Needs the current password (401 when wrong). Ends every other session. Not available to API keys.",
    tags: accountTags,
    auth: "user",
    apiKey: false,
    body: changePasswordInput,
    response: messageSchema,
    errors: ["FORBIDDEN"],
  }),
};
