import { z } from "zod";

/** GET /users/blocked: one blocked user. */
export const blockedUserSchema = z
  .object({
    userId: z.uuid(),
    blockedAt: z.iso.datetime(),
    knownAs: z.string().nullable().meta({ description: "The name this user gave as a finder in your latest conversation with them, if any", example: "Sam" }),
  })
  .meta({ id: "BlockedUser" });
export type BlockedUser = z.infer<typeof blockedUserSchema>;
