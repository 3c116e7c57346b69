import { count, eq, sql } from "drizzle-orm";
import { schema, type Transaction } from "@/db/client";
import { hashPassword } from "@/lib/auth/password";
import { log } from "@/lib/log";
import { type ServiceContext, withTransaction } from "@/lib/services/context";
import { activateIfComplete, activateTag, changeTagStatus, mintTags, type TagStatus, type TagType } from "@/lib/services/tags";
import { DEMO_TAG_ENCRYPTED_ID } from "@/lib/services/scans";
import { removeTwoFactor, retireUserTokens, revokeUserApiKeys, revokeUserSessions } from "@/lib/services/auth";
import { newThreadToken, threadTokenHash } from "@/lib/services/messages";
import { seedCatalogue } from "@/lib/services/orders";
import { seedContent } from "@/lib/services/content";

/** The demo account seeded outside production, so `npm run dev` has someone to sign in as. */
export const DEMO_USER = { email: "demo@tagservice.local", password: "DemoTags2026", firstName: "Dana", lastName: "Demo" } as const;

export interface SeedOptions {
  adminEmail?: string;
  adminPassword?: string;
  /** Demo content for development; never in production. */
  demo: boolean;
}

export interface SeedResult {
  /** `refused`: ADMIN_EMAIL names an existing account and ADMIN_PASSWORD is not set (see seedAdmin). */
  admin: "created" | "promoted" | "unchanged" | "skipped" | "refused";
  demoUser: "created" | "unchanged" | "skipped";
  /** The demo user's tags (every type and status) and some unclaimed inventory: made once. */
  demoTags: "created" | "unchanged" | "skipped";
  /** The shop's starter catalogue, with the demo content: `created` when any product was added. */
  catalogue: "created" | "unchanged" | "skipped";
}

/** Unclaimed tags minted alongside the demo tags, to try activation with. */
export const DEMO_INVENTORY_COUNT = 5;

interface DemoTag {
  tagType: TagType;
  itemName: string;
  /** The typed profile row (typed tags); without it a typed tag stays PENDING_SETUP. */
  typed?: (db: Transaction, tagId: string) => Promise<unknown>;
  /** Moves after the claim, each through changeTagStatus (the first ACTIVE by profile completion). */
  path: TagStatus[];
  lostMessage?: string;
  /** A fixed scan id instead of a random one (the API documentation's example tag). */
  encryptedId?: string;
}

/** Every type and every status at least once. EXPIRED has no owner-made path: see seedDemoTags. */
const DEMO_TAGS: DemoTag[] = [
  { tagType: "GENERAL", itemName: "House keys", path: ["ACTIVE"], encryptedId: DEMO_TAG_ENCRYPTED_ID },
  {
    tagType: "PET",
    itemName: "Biscuit",
    typed: (db, tagId) => db.insert(schema.petProfiles).values({ tagId, petName: "Biscuit", species: "Dog", breed: "Beagle", color: "Tricolour" }),
    path: ["ACTIVE", "LOST"],
    lostMessage: "Biscuit is friendly but shy. Please call or message me!",
  },
  {
    tagType: "VEHICLE",
    itemName: "Blue hatchback",
    typed: (db, tagId) => db.insert(schema.vehicleProfiles).values({ tagId, make: "Volkswagen", model: "Golf", year: 2019, color: "Blue", licensePlate: "DEMO 123", vin: "WVWZZZ1KZAW000001" }),
    path: ["ACTIVE", "STOLEN"],
  },
  {
    tagType: "DEVICE",
    itemName: "Work laptop",
    typed: (db, tagId) => db.insert(schema.deviceProfiles).values({ tagId, deviceType: "Laptop", brand: "Lenovo", model: "ThinkPad X1", color: "Black" }),
    path: ["ACTIVE", "LOST", "FOUND"],
    lostMessage: "Left on the train, please get in touch.",
  },
  {
    tagType: "TRAVEL",
    itemName: "Grey suitcase",
    typed: (db, tagId) => db.insert(schema.travelProfiles).values({ tagId, luggageType: "Suitcase", color: "Grey", brand: "Samsonite" }),
    path: ["ACTIVE", "DEACTIVATED"],
  },
  // A typed tag whose typed profile is not saved yet stays PENDING_SETUP.
  { tagType: "PET", itemName: "New collar tag", path: [] },
  { tagType: "GENERAL", itemName: "Old umbrella", path: ["ACTIVE", "EXPIRED"] },
];

/** The advisory lock seeding holds (an arbitrary constant of this app). */
const SEED_LOCK_KEY = 7_262_016_001;

/**
 * Idempotent: creates or promotes the SUPER_ADMIN from ADMIN_EMAIL/ADMIN_PASSWORD (see seedAdmin) and,
 * when asked, the demo content. Later issues extend the demo content.
 */
export async function seedDatabase(ctx: ServiceContext, options: SeedOptions): Promise<SeedResult> {
  return withTransaction(ctx, async (tx) => {
    // Instances starting together each seed: one at a time, so the later ones find the admin and the demo
    // content there instead of failing on a duplicate key (the lock ends with the transaction).
    await tx.db.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY}::bigint)`);
    const result: SeedResult = { admin: "skipped", demoUser: "skipped", demoTags: "skipped", catalogue: "skipped" };
    if (options.adminEmail) result.admin = await seedAdmin(tx, options.adminEmail, options.adminPassword);
    if (options.demo) {
      const inserted = await tx.db
        .insert(schema.users)
        .values({
          email: DEMO_USER.email,
          passwordHash: await hashPassword(DEMO_USER.password),
          firstName: DEMO_USER.firstName,
          lastName: DEMO_USER.lastName,
          emailVerified: true,
        })
        .onConflictDoNothing()
        .returning({ id: schema.users.id });
      result.demoUser = inserted.length ? "created" : "unchanged";
      result.demoTags = (await seedDemoTags(tx)) ? "created" : "unchanged";
      // Production starts with an empty shop that its admins fill (POST /admin/products); development and
      // demos get the starter catalogue. Products already there (by slug) are never touched.
      result.catalogue = (await seedCatalogue(tx.db)) > 0 ? "created" : "unchanged";
      // The blog's and careers page's starting content, likewise: rows already there are never touched.
      await seedContent(tx.db);
    }
    return result;
  });
}

/**
 * The SUPER_ADMIN named by ADMIN_EMAIL. A new address becomes the admin with ADMIN_PASSWORD. An existing
 * account that is not SUPER_ADMIN was registered by whoever got there first, so promoting it as it is
 * would hand the admin role to that registrant's password: it gets ADMIN_PASSWORD, a confirmed address,
 * no second factor, and loses every session (their refresh tokens with them), API key and pending reset
 * link, all in the seed's transaction. Without ADMIN_PASSWORD there is no password to give it, so it is
 * not promoted. An existing SUPER_ADMIN keeps its password and sessions (the seed runs on every start).
 */
async function seedAdmin(tx: ServiceContext & { db: Transaction }, adminEmail: string, adminPassword: string | undefined): Promise<SeedResult["admin"]> {
  const email = adminEmail.toLowerCase();
  const [existing] = await tx.db.select().from(schema.users).where(eq(sql`lower(${schema.users.email})`, email)).for("update");
  if (existing?.role === "SUPER_ADMIN") {
    if (existing.emailVerified) return "unchanged";
    await tx.db.update(schema.users).set({ emailVerified: true }).where(eq(schema.users.id, existing.id));
    return "promoted";
  }
  if (!adminPassword) {
    log.warn(
      existing
        ? "ADMIN_EMAIL names an existing account but ADMIN_PASSWORD is not set: not promoted to SUPER_ADMIN, since it would keep the password its registrant chose. Set ADMIN_PASSWORD to take it over."
        : "ADMIN_EMAIL is set but ADMIN_PASSWORD is not: no SUPER_ADMIN created.",
      existing ? { userId: existing.id, email, role: existing.role } : { email },
    );
    return existing ? "refused" : "skipped";
  }
  const passwordHash = await hashPassword(adminPassword);
  if (!existing) {
    await tx.db.insert(schema.users).values({ email, passwordHash, firstName: "Platform", lastName: "Admin", role: "SUPER_ADMIN", emailVerified: true });
    return "created";
  }
  await tx.db.update(schema.users).set({ role: "SUPER_ADMIN", emailVerified: true, passwordHash }).where(eq(schema.users.id, existing.id));
  await removeTwoFactor(tx.db, existing.id);
  const sessionsRevoked = await revokeUserSessions(tx.db, existing.id);
  const apiKeysRevoked = await revokeUserApiKeys(tx.db, existing.id);
  await retireUserTokens(tx.db, existing.id, "PASSWORD_RESET");
  log.warn(
    "ADMIN_EMAIL names an existing account: promoted it to SUPER_ADMIN, set its password to ADMIN_PASSWORD, confirmed its address, turned off its two-factor and revoked its sessions, API keys and reset links.",
    { userId: existing.id, email, previousRole: existing.role, sessionsRevoked, apiKeysRevoked },
  );
  return "promoted";
}

/**
 * The demo user's tags, once (skipped when the demo user already owns any tag): minted and claimed
 * through the tag services, profiles filled, statuses moved by changeTagStatus so tag_events hold the
 * history. The demo user is PRO, so the seven tags fit the tier limit. Plus unclaimed inventory.
 */
async function seedDemoTags(tx: ServiceContext & { db: Transaction }): Promise<boolean> {
  const [demo] = await tx.db.select().from(schema.users).where(eq(schema.users.email, DEMO_USER.email));
  if (!demo) return false;
  const [owned] = await tx.db.select({ n: count() }).from(schema.tags).where(eq(schema.tags.ownerId, demo.id));
  if ((owned?.n ?? 0) > 0) return false;

  await tx.db.update(schema.users).set({ subscription: "PRO" }).where(eq(schema.users.id, demo.id));
  const asDemo: ServiceContext = { ...tx, actor: { kind: "user", userId: demo.id, role: demo.role, ip: "127.0.0.1" } };
  const actor = { kind: "user" as const, userId: demo.id };

  for (const spec of DEMO_TAGS) {
    const [minted] = await mintTags(tx, { count: 1, tagType: spec.tagType });
    // The documented example id, unless a tag already has it (a demo account made again after its deletion
    // leaves the old tag behind: the new one keeps its random id rather than break the unique index).
    if (spec.encryptedId) {
      const [taken] = await tx.db.select({ id: schema.tags.id }).from(schema.tags).where(eq(schema.tags.encryptedId, spec.encryptedId));
      if (!taken) await tx.db.update(schema.tags).set({ encryptedId: spec.encryptedId }).where(eq(schema.tags.id, minted!.id));
    }
    const claimed = await activateTag(asDemo, { code: minted!.code, tagType: spec.tagType, itemName: spec.itemName });
    await tx.db.insert(schema.tagProfiles).values({ tagId: claimed.id, description: `Demo ${spec.tagType.toLowerCase()} tag.`, ownerName: `${demo.firstName} ${demo.lastName}`, contactEmail: demo.email });
    if (spec.typed) {
      await spec.typed(tx.db, claimed.id);
      await tx.db.update(schema.tags).set({ typedProfileSavedAt: new Date() }).where(eq(schema.tags.id, claimed.id));
    }
    const [row] = await tx.db.select().from(schema.tags).where(eq(schema.tags.id, claimed.id));
    let tag = row!;
    for (const to of spec.path) {
      if (to === "ACTIVE" && tag.status === "PENDING_SETUP") {
        tag = await activateIfComplete(tx.db, tag, demo.id);
        if (tag.status !== "ACTIVE") throw new Error(`demo tag ${spec.itemName}: profile incomplete`);
      } else if (to === "EXPIRED") {
        // EXPIRED comes from a subscription ending (docs/decisions/0014-tag-state-machine.md), not from the table: set it
        // directly, with the event the expiry would record.
        const [expired] = await tx.db.update(schema.tags).set({ status: "EXPIRED", lostMessage: null }).where(eq(schema.tags.id, tag.id)).returning();
        await tx.db.insert(schema.tagEvents).values({ tagId: tag.id, fromStatus: tag.status, toStatus: "EXPIRED", actorKind: "system", reason: "subscription ended (demo)", createdAt: new Date() });
        tag = expired!;
      } else {
        // A stolen vehicle carries a police reference, as a real report must for the VIN check to show it.
        tag = await changeTagStatus(tx.db, tag, { to, actor, lostMessage: to === "LOST" ? (spec.lostMessage ?? null) : undefined, policeReportRef: to === "STOLEN" ? "DEMO-POLICE-0001" : undefined });
      }
    }
  }

  await mintTags(tx, { count: DEMO_INVENTORY_COUNT });
  await seedDemoFinderSide(tx, demo.id);
  return true;
}

/**
 * The finder's side of the demo: a conversation a finder started about the LOST pet (its token is made
 * and thrown away, as only a finder would hold it) with a reward offered on the pet, and an emergency
 * profile with a contact, so the inbox, the rewards, the emergency page and the ICE card have something to show.
 */
async function seedDemoFinderSide(tx: ServiceContext & { db: Transaction }, demoId: string): Promise<void> {
  const [lost] = await tx.db.select().from(schema.tags).where(sql`${schema.tags.ownerId} = ${demoId} and ${schema.tags.status} = 'LOST'`).limit(1);
  if (lost) {
    const [thread] = await tx.db
      .insert(schema.threads)
      .values({ tagId: lost.id, ownerId: demoId, tokenHash: threadTokenHash(newThreadToken()), finderName: "Sam", finderLocale: "en" })
      .returning({ id: schema.threads.id });
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    await tx.db.insert(schema.threadMessages).values([
      { threadId: thread!.id, sender: "FINDER", content: "Hi! I think I found Biscuit near the park gates. He's safe with me.", createdAt: at(30) },
      { threadId: thread!.id, sender: "OWNER", content: "Thank you so much! Can we meet at the café on the corner at 6?", createdAt: at(20), readAt: at(15) },
      { threadId: thread!.id, sender: "FINDER", content: "Sure, see you there at 6.", createdAt: at(10) },
    ]);
    await tx.db.update(schema.threads).set({ lastMessageAt: at(10) }).where(eq(schema.threads.id, thread!.id));
    // Written directly like the conversation: the seed runs before the job queues exist, so no notification.
    await tx.db.insert(schema.rewards).values({ tagId: lost.id, ownerId: demoId, amountMinor: 5000, currency: "USD", description: "Biscuit is family. Thank you so much!" });
  }
  await tx.db.insert(schema.emergencyProfiles).values({ userId: demoId, bloodType: "A+", allergies: ["Penicillin"], medications: [], conditions: ["Asthma"], organDonor: true }).onConflictDoNothing();
  await tx.db.insert(schema.emergencyContacts).values({ userId: demoId, name: "Alex Demo", relationship: "Partner", phone: "+1 555 0100" });
}
