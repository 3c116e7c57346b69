import { z } from "zod";
import { setTagStatusInput } from "@/lib/services/tags";

export const REWARD_STATUSES = ["ACTIVE", "RETURNED", "PAID", "DISPUTED"] as const;
export const MAX_REWARD_AMOUNT = 10_000;
export const HANDOVER_CODE_MAX_FAILURES = 5;
export const RETURN_CONFIRMATIONS = ["HANDOVER_CODE", "OWNER_CHOSE_FINDER", "OWNER"] as const;
export type ReturnConfirmation = (typeof RETURN_CONFIRMATIONS)[number];

const returnConfirmationSchema = z.enum(RETURN_CONFIRMATIONS).meta({
  id: "ReturnConfirmation",
  description:
    "How the return was confirmed. HANDOVER_CODE: with the one-time code of one finder's conversation (a verified handover). OWNER_CHOSE_FINDER: the owner named the finder's conversation, without a code. OWNER: the owner alone, no finder named.",
});

const isCents = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

export const createRewardInput = z.object({
  amount: z
    .number({ error: (issue) => (issue.input === undefined || issue.input === "" ? "Enter the amount, like 50." : "The amount must be a number, like 50.") })
    .positive()
    .max(MAX_REWARD_AMOUNT)
    .refine(isCents, "At most two decimal places.")
    .meta({ description: "Amount in major units, > 0 and ≤ 10 000", example: 50 }),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "An ISO 4217 code of three letters.")
    .default("USD")
    .meta({ description: "ISO 4217 currency code (answered upper case)", example: "USD" }),
  description: z.string().trim().max(2000).nullish().meta({ description: "Optional note to the finder", example: "Thank you for returning my keys!" }),
});
export type CreateRewardInput = z.infer<typeof createRewardInput>;

/**
 * Lost mode's one form (lib/services/rewards/lost-mode.ts): the message for finders and the reward, saved
 * together. `reward`: the reward's fields as POST /rewards/:tagId takes them; null for no reward; left out,
 * the reward is left as it is.
 */
export const lostModeInput = z.object({
  lostMessage: setTagStatusInput.shape.lostMessage,
  reward: createRewardInput.nullable().optional(),
});
export type LostModeInput = z.output<typeof lostModeInput>;

/** confirm-return's body fields (the body itself may be left out): a finder's code, or the finder's conversation, or neither. */
export const confirmReturnFields = z
  .object({
    handoverCode: z
      .string()
      .regex(/^\d{6}$/, "Six digits.")
      .optional()
      .meta({ description: "The 6-digit code the finder handed over with the item (each conversation has its own); a match names that finder and marks the return as a verified handover", example: "482915" }),
    threadId: z
      .uuid()
      .optional()
      .meta({ description: "Without a code: the conversation of the finder who returned the item (one of this tag's conversations)", example: "7d0f3c1a-5b2e-4c8d-9a6f-1e2b3c4d5e6f" }),
  })
  .refine((fields) => fields.handoverCode === undefined || fields.threadId === undefined, { message: "Give the handover code or the conversation, not both.", path: ["threadId"] });
export const confirmReturnInput = confirmReturnFields.optional().default({});
export type ConfirmReturnInput = z.infer<typeof confirmReturnInput>;

/** pay's body fields (the body itself may be left out). */
export const payRewardFields = z.object({
  paymentRef: z.string().trim().min(1).max(500).nullish().meta({ description: "An external payment reference", example: "PAYPAL-7XK29" }),
});
export const payRewardInput = payRewardFields.optional().default({});
export type PayRewardInput = z.infer<typeof payRewardInput>;

export const disputeRewardInput = z.object({
  reason: z.string().trim().min(1).max(2000).meta({ description: "Why the reward is disputed", example: "The item came back damaged." }),
});
export type DisputeRewardInput = z.infer<typeof disputeRewardInput>;

export const rewardSchema = z
  .object({
    id: z.uuid(),
    tagId: z.uuid(),
    tagName: z.string().nullable(),
    amount: z.number(),
    currency: z.string(),
    description: z.string().nullable(),
    status: z.enum(REWARD_STATUSES),
    createdAt: z.iso.datetime(),
    returnedAt: z.iso.datetime().nullable(),
    verifiedHandover: z.boolean(),
    returnConfirmation: returnConfirmationSchema.nullable().meta({ description: "Once returned: how the return was confirmed" }),
    finderThreadId: z.uuid().nullable().meta({ description: "Once returned with a finder named: that finder's conversation" }),
    handoverAttemptsLeft: z.number().int().meta({ description: "Wrong handover codes still accepted before the code check locks (0: locked; confirm without a code)" }),
    certificateId: z.string().nullable().meta({ description: "Once RETURNED or PAID: the public certificate's id (page at /certificates/{certificateId})" }),
    paymentRef: z.string().nullable(),
    paidAt: z.iso.datetime().nullable(),
    disputeReason: z.string().nullable(),
  })
  .meta({
    id: "Reward",
    example: {
      id: "5b8c8f0e-2f55-4a0d-9d3b-2f4f9a3e6c11",
      tagId: "0b5c3a52-9a7e-4a8e-8d0f-4d7f3e2a1b90",
      tagName: "House keys",
      amount: 50,
      currency: "USD",
      description: "Thank you!",
      status: "ACTIVE",
      createdAt: "2026-01-01T12:00:00.000Z",
      returnedAt: null,
      verifiedHandover: false,
      returnConfirmation: null,
      finderThreadId: null,
      handoverAttemptsLeft: 5,
      certificateId: null,
      paymentRef: null,
      paidAt: null,
      disputeReason: null,
    },
  });
export type RewardRecord = z.infer<typeof rewardSchema>;

export const confirmReturnResultSchema = z.object({
  tagId: z.uuid(),
  status: z.literal("RETURNED"),
  verifiedHandover: z.boolean(),
  confirmation: returnConfirmationSchema,
  finderThreadId: z.uuid().nullable().meta({ description: "The finder's conversation the return names (thanked, and given the certificate), else null" }),
  message: z.string(),
});
export type ConfirmReturnResult = z.infer<typeof confirmReturnResultSchema>;

export const payRewardResultSchema = z.object({ id: z.uuid(), status: z.literal("PAID"), paymentRef: z.string().nullable(), paidAt: z.iso.datetime() });
export type PayRewardResult = z.infer<typeof payRewardResultSchema>;

export const disputeRewardResultSchema = z.object({ id: z.uuid(), status: z.literal("DISPUTED"), disputeReason: z.string(), message: z.string() });
export type DisputeRewardResult = z.infer<typeof disputeRewardResultSchema>;

export const certificateSchema = z
  .object({
    tagId: z.uuid(),
    itemName: z.string().nullable(),
    returnedAt: z.iso.datetime(),
    certificateId: z.string(),
    verifyUrl: z.url(),
    verifiedHandover: z.boolean(),
    confirmation: returnConfirmationSchema,
    rewardAmount: z.number().meta({ description: "The reward's amount in major units" }),
    rewardCurrency: z.string(),
    rewardStatus: z.enum(["RETURNED", "PAID"]),
  })
  .meta({
    id: "ReturnCertificate",
    example: {
      tagId: "0b5c3a52-9a7e-4a8e-8d0f-4d7f3e2a1b90",
      itemName: "House keys",
      returnedAt: "2026-01-02T09:30:00.000Z",
      certificateId: "k3J9xQ2mZp8LwR4tY7vB1nC6",
      verifyUrl: "http://localhost:3000/certificates/k3J9xQ2mZp8LwR4tY7vB1nC6",
      verifiedHandover: true,
      confirmation: "HANDOVER_CODE",
      rewardAmount: 50,
      rewardCurrency: "USD",
      rewardStatus: "PAID",
    },
  });
export type Certificate = z.infer<typeof certificateSchema>;

export const certificateResultSchema = z.object({ certificate: certificateSchema });
export type CertificateResult = z.infer<typeof certificateResultSchema>;

export const certificateIdParams = z.object({
  certificateId: z.string().regex(/^[A-Za-z0-9]{24}$/).meta({ description: "The certificate's public id", example: "k3J9xQ2mZp8LwR4tY7vB1nC6" }),
});

export const finderRewardSchema = z.object({
  offered: z.boolean(),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  description: z.string().nullable(),
  status: z.enum(REWARD_STATUSES).nullable().meta({ description: "The reward's state; a conversation the return did not name sees RETURNED whatever follows" }),
  outcome: z
    .enum(["OPEN", "YOURS", "ITEM_BACK"])
    .nullable()
    .meta({ description: "OPEN: the reward is offered. YOURS: the owner confirmed the return with this conversation's finder. ITEM_BACK: the item is back with its owner through someone else (or the owner alone); the conversation is closed" }),
  handoverCode: z
    .string()
    .nullable()
    .meta({ description: "While the reward is ACTIVE: this conversation's own one-time code, to give the owner only once the item is in their hands (none when the owner opened the conversation)" }),
  handoverAdvice: z.string().nullable(),
  verifiedHandover: z.boolean(),
  certificateUrl: z.url().nullable().meta({ description: "Once the owner confirmed the return: the public certificate's page" }),
});
/** A reward as a finder's page or a poster shows it. */
export interface RewardOffer {
  amount: number;
  currency: string;
}

export type FinderReward = z.infer<typeof finderRewardSchema>;
