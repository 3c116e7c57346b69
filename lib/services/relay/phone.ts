import { randomInt } from "node:crypto";
import { and, eq, gt, isNull, lt, ne, sql } from "drizzle-orm";
import { schema } from "@/db/client";
import { keyedHash, safeEqual, sealText } from "@/lib/auth/tokens";
import { countAttempt } from "@/lib/ratelimit";
import { telephonyProvider } from "@/lib/telephony/provider";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { RateLimitError, ServiceUnavailableError, ValidationError } from "@/lib/services/errors";
import { describeError, log } from "@/lib/log";
import { hashPhoneNumber, lastDigitsOf, normalizePhoneNumber, OWNER_PHONE_SEAL } from "./phone-number";

/** A code lives 10 minutes and takes 5 tries (docs/relay.md). */
export const PHONE_CODE_TTL_MS = 10 * 60 * 1000;
export const PHONE_CODE_TRIES = 5;

const CODE_HASH = "relay-phone-code";

/** A 6-digit code has little entropy: kept only as a keyed hash bound to the account, so a copy of the table cannot be tried offline. */
function hashCode(userId: string, code: string): string {
  return keyedHash(CODE_HASH, `${userId}:${code}`);
}

export interface PhoneCodeSent {
  message: string;
  lastDigits: string;
  expiresAt: string;
}

/**
 * POST /auth/phone: texts a 6-digit code to the number through the telephony provider; a new request
 * replaces the pending code. An invalid number is 400. Limited per account (the contract's
 * phoneCodeSends) and per number, whoever asks (phoneCodeSendsByNumber, counted here by the number's
 * keyed hash, and given back when the text could not be sent).
 */
export async function requestPhoneCode(ctx: ServiceContext, input: { phone: string; country?: string }): Promise<PhoneCodeSent> {
  const { userId, ip } = requireUser(ctx);
  const phone = normalizePhoneNumber(input.phone, input.country);
  if (!phone) throw ValidationError.field("phone", "This is not a valid phone number. Write it in international form, e.g. +49 151 23456789.");
  const phoneHash = hashPhoneNumber(phone);
  const counted = await countAttempt(["phoneCodeSendsByNumber"], { ip, key: phoneHash });
  if (!counted.decision.allowed) {
    await counted.refund();
    throw new RateLimitError(counted.decision.retryAfter);
  }
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const expiresAt = new Date(Date.now() + PHONE_CODE_TTL_MS);
  const row = { phoneSealed: sealText(OWNER_PHONE_SEAL, phone), phoneHash, lastDigits: lastDigitsOf(phone), codeHash: hashCode(userId, code), attempts: 0, expiresAt, consumedAt: null, createdAt: new Date() };
  await ctx.db
    .insert(schema.phoneVerifications)
    .values({ userId, ...row })
    .onConflictDoUpdate({ target: schema.phoneVerifications.userId, set: row });
  try {
    await telephonyProvider().sendSms({ to: phone, body: `Your Tag Service code is ${code}. It expires in 10 minutes. Do not share it.` });
  } catch (error) {
    log.warn("phone code text not sent", { error: describeError(error), requestId: ctx.requestId });
    // The code never reached anyone: it cannot be used, and it does not count against the number.
    await ctx.db.delete(schema.phoneVerifications).where(and(eq(schema.phoneVerifications.userId, userId), eq(schema.phoneVerifications.codeHash, row.codeHash)));
    await counted.refund();
    throw new ServiceUnavailableError("The text with your code could not be sent. Please try again shortly.");
  }
  return { message: "A 6-digit code is on its way by text.", lastDigits: row.lastDigits, expiresAt: expiresAt.toISOString() };
}

export interface VerifiedPhone {
  lastDigits: string;
  verifiedAt: string;
}

async function refusal(ctx: ServiceContext, userId: string): Promise<ValidationError> {
  const [pending] = await ctx.db.select().from(schema.phoneVerifications).where(eq(schema.phoneVerifications.userId, userId));
  if (!pending) return ValidationError.field("code", "Ask for a code first.");
  if (pending.consumedAt) return ValidationError.field("code", "This code was already used. Ask for a new one if you need to.");
  if (pending.attempts >= PHONE_CODE_TRIES) return ValidationError.field("code", "This code is used up after 5 wrong tries. Ask for a new one.");
  return ValidationError.field("code", "This code has expired. Ask for a new one.");
}

/**
 * POST /auth/phone/verify. Each try is counted first, by one conditional UPDATE (attempts < 5, not used,
 * not expired), so no burst of simultaneous tries can pass 5; the right code is then spent by a second
 * conditional UPDATE that only one request can win, so ten simultaneous right answers verify once.
 * The number becomes the account's relay number (replacing any earlier one). A number verified by another
 * account moves to this one: whoever proves they hold it now wins (numbers are reassigned), and the other
 * account's relays are switched off (docs/relay.md).
 */
export async function verifyPhoneCode(ctx: ServiceContext, input: { code: string }): Promise<VerifiedPhone> {
  const { userId } = requireUser(ctx);
  const table = schema.phoneVerifications;
  const [pending] = await ctx.db
    .update(table)
    .set({ attempts: sql`${table.attempts} + 1` })
    .where(and(eq(table.userId, userId), isNull(table.consumedAt), lt(table.attempts, PHONE_CODE_TRIES), gt(table.expiresAt, new Date())))
    .returning();
  if (!pending) throw await refusal(ctx, userId);
  if (!safeEqual(pending.codeHash, hashCode(userId, input.code))) {
    const left = PHONE_CODE_TRIES - pending.attempts;
    throw ValidationError.field("code", left > 0 ? `Wrong code. ${left} ${left === 1 ? "try" : "tries"} left.` : "Wrong code. This code is now used up; ask for a new one.");
  }
  return withTransaction(ctx, async (tx) => {
    const [spent] = await tx.db
      .update(table)
      .set({ consumedAt: new Date() })
      .where(and(eq(table.userId, userId), eq(table.codeHash, pending.codeHash), isNull(table.consumedAt)))
      .returning();
    if (!spent) throw await refusal(tx, userId);
    // One account per number: simultaneous verifications of one number by two accounts take turns here.
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${spent.phoneHash}))`);
    const previous = await tx.db
      .delete(schema.ownerPhones)
      .where(and(eq(schema.ownerPhones.phoneHash, spent.phoneHash), ne(schema.ownerPhones.userId, userId)))
      .returning({ userId: schema.ownerPhones.userId });
    for (const { userId: previousOwner } of previous) {
      await tx.db.update(schema.tagRelays).set({ enabled: false }).where(eq(schema.tagRelays.ownerId, previousOwner));
    }
    const verifiedAt = new Date();
    const row = { phoneSealed: spent.phoneSealed, phoneHash: spent.phoneHash, lastDigits: spent.lastDigits, verifiedAt };
    await tx.db.insert(schema.ownerPhones).values({ userId, ...row }).onConflictDoUpdate({ target: schema.ownerPhones.userId, set: row });
    return { lastDigits: spent.lastDigits, verifiedAt: verifiedAt.toISOString() };
  });
}

/** The account's verified relay number as pages show it (last 2 digits), or null. */
export async function getVerifiedPhone(ctx: ServiceContext): Promise<VerifiedPhone | null> {
  const { userId } = requireUser(ctx);
  const [row] = await ctx.db.select().from(schema.ownerPhones).where(eq(schema.ownerPhones.userId, userId));
  return row ? { lastDigits: row.lastDigits, verifiedAt: row.verifiedAt.toISOString() } : null;
}
