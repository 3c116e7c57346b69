import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";

// The alert pages' server actions run inside Next's request scope, which a test does not have: `headers()`,
// `cookies()` (the signed-in user's session cookie), the cache invalidation calls and the translations are
// given here. The wrapper, next-auth, the rate limiter, the services and the database are the real ones.
const request = mockNextRequestScope("192.0.2.94");
const { eq } = await import("drizzle-orm");
const { getDatabase, schema } = await import("@/db/client");
const { prepareJobs, stopJobs } = await import("@/lib/jobs");
const { resetRateLimiterForTests } = await import("@/lib/ratelimit");
const { rateLimitPolicyNames } = await import("@/lib/ratelimit/policies");
const { saveAlertAreaAction, stopWatchingAction } = await import("@/app/(dashboard)/dashboard/alerts/actions");
const { raiseLostAlertAction } = await import("@/app/(dashboard)/dashboard/tags/[id]/lost-alert-actions");
const { contactFromAlertAction, describeSightingAction, sightingAction } = await import("@/app/(finder)/lost/[alertId]/actions");
const { registerAccount } = await import("../support/auth");
const { giveTestTag, forceTagStatus } = await import("../support/tags");
const { threadRowByToken } = await import("../support/messages");

type Account = Awaited<ReturnType<typeof registerAccount>>;
const db = () => getDatabase().db;
const idle = { status: "idle" as const };
const unlimited = Object.fromEntries(rateLimitPolicyNames.map((name) => [name, { limit: 1_000_000, windowMs: 60_000 }]));

beforeAll(async () => {
  // Many conversations from one test address: the contact limits are the API's business, tested there.
  resetRateLimiterForTests(unlimited as never);
  await prepareJobs();
});
afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

async function as<T>(account: Account | null, work: () => Promise<T>): Promise<T> {
  request.cookie = account?.cookie ?? "";
  try {
    return await work();
  } finally {
    request.cookie = "";
  }
}

async function lostDog() {
  const owner = await registerAccount();
  const tag = await giveTestTag(owner.id, { tagType: "PET", status: "LOST", itemName: "Bella" });
  await db().insert(schema.petProfiles).values({ tagId: tag.id, petName: "Bella", species: "Dog", breed: "Labrador", color: "brown" });
  return { owner, tag };
}

async function areaOf(userId: string) {
  const [area] = await db().select().from(schema.alertAreas).where(eq(schema.alertAreas.userId, userId));
  return area;
}

async function alertsOf(tagId: string) {
  return db().select().from(schema.lostPetAlerts).where(eq(schema.lostPetAlerts.tagId, tagId));
}

describe("/dashboard/alerts: the watch area's form", () => {
  it("saves a place west of Greenwich (negative numbers, a comma as the decimal mark), rounded to ~100 m, with the species", async () => {
    const user = await registerAccount();
    const state = await as(user, () => saveAlertAreaAction(idle, form({ latitude: "40.41537", longitude: "-3,68452", radiusKm: "2,5", species: "DOG" })));
    expect(state).toMatchObject({ status: "success", message: "Saved: you will hear of pets lost within 2.5 km of your area.", values: { latitude: "40.415", longitude: "-3.685", radiusKm: "2.5", species: "DOG" } });
    expect(await areaOf(user.id)).toMatchObject({ latitude: 40.415, longitude: -3.685, radiusKm: 2.5, species: "DOG" });
    // Every kind again: the empty choice.
    await as(user, () => saveAlertAreaAction(idle, form({ latitude: "-33.8688", longitude: "151.2093", radiusKm: "50", species: "" })));
    expect(await areaOf(user.id)).toMatchObject({ latitude: -33.869, longitude: 151.209, radiusKm: 50, species: null });
  });

  it("answers a missing place, a radius out of range and words beside their fields, keeping what was typed and saving nothing", async () => {
    const user = await registerAccount();
    const state = await as(user, () => saveAlertAreaAction(idle, form({ latitude: "", longitude: "", radiusKm: "51", species: "UNICORN" })));
    expect(state.status).toBe("error");
    expect(state.fieldErrors?.latitude).toBeDefined();
    expect(state.fieldErrors?.longitude).toBeDefined();
    expect(state.fieldErrors?.radiusKm).toEqual(["Between 1 and 50 km."]);
    expect(state.fieldErrors?.species).toBeDefined();
    expect(state.values).toMatchObject({ radiusKm: "51", species: "UNICORN" });
    const words = await as(user, () => saveAlertAreaAction(idle, form({ latitude: "north", longitude: "0x10", radiusKm: "3" })));
    expect(words.fieldErrors).toMatchObject({ latitude: ["Must be a number."], longitude: ["Must be a number."] });
    expect(await areaOf(user.id)).toBeUndefined();
  });

  it("sends a signed-out visitor to sign in and back", async () => {
    expect(await redirectOf(as(null, () => saveAlertAreaAction(idle, form({ latitude: "1", longitude: "1", radiusKm: "3" }))))).toMatch(/^\/login\?next=%2Fdashboard%2Falerts/);
  });

  it("stops watching, and stopping twice is done too", async () => {
    const user = await registerAccount();
    await as(user, () => saveAlertAreaAction(idle, form({ latitude: "52.52", longitude: "13.405", radiusKm: "3" })));
    expect(await redirectOf(as(user, () => stopWatchingAction(form({}))))).toBe("/dashboard/alerts?notice=stopped");
    expect(await areaOf(user.id)).toBeUndefined();
    expect(await redirectOf(as(user, () => stopWatchingAction(form({}))))).toBe("/dashboard/alerts?notice=stopped");
  });
});

describe("the tag page's \"Alert people nearby\"", () => {
  it("raises the alert with the time read on the owner's wall clock, and says how many people it reached", async () => {
    const { owner, tag } = await lostDog();
    const watcher = await registerAccount();
    await as(watcher, () => saveAlertAreaAction(idle, form({ latitude: "-12.0464", longitude: "-77.0428", radiusKm: "5" })));
    const lastSeen = new Date(Date.now() - 2 * 3_600_000);
    const wall = new Intl.DateTimeFormat("sv-SE", { timeZone: "America/Lima", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(lastSeen).replace(" ", "T");
    const state = await as(owner, () =>
      raiseLostAlertAction(idle, form({ tagId: tag.id, timeZone: "America/Lima", latitude: "-12.0470", longitude: "-77.0430", lastSeenAt: wall, radiusKm: "3", note: "Shy." })),
    );
    expect(state).toMatchObject({ status: "success", message: "Sent to 1 person nearby." });
    const [alert] = await alertsOf(tag.id);
    expect(alert).toMatchObject({ latitude: -12.047, longitude: -77.043, radiusKm: 3, note: "Shy." });
    // Lima is UTC-5 all year: the instant is the wall clock plus five hours, to the minute.
    expect(Math.abs(alert!.lastSeenAt.getTime() - lastSeen.getTime())).toBeLessThan(60_000);
  });

  it("says so when nobody watches the area; a blank time is now", async () => {
    const { owner, tag } = await lostDog();
    const before = Date.now();
    const state = await as(owner, () => raiseLostAlertAction(idle, form({ tagId: tag.id, timeZone: "Europe/Berlin", latitude: "89.5", longitude: "179.5", lastSeenAt: "", radiusKm: "" })));
    expect(state).toMatchObject({ status: "success", message: expect.stringContaining("nobody watches that area yet") });
    const [alert] = await alertsOf(tag.id);
    expect(alert!.radiusKm).toBe(5);
    expect(alert!.lastSeenAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it("answers bad input beside its fields: no place, a time in the future, a radius over 20 km, an unreadable time", async () => {
    const { owner, tag } = await lostDog();
    const state = await as(owner, () => raiseLostAlertAction(idle, form({ tagId: tag.id, timeZone: "UTC", latitude: "", longitude: "", lastSeenAt: "2999-01-01T10:00", radiusKm: "21" })));
    expect(state.status).toBe("error");
    expect(state.fieldErrors).toMatchObject({ lastSeenAt: ["Cannot be in the future."], radiusKm: ["Between 1 and 20 km."] });
    expect(state.fieldErrors?.latitude).toBeDefined();
    expect(state.values).toMatchObject({ lastSeenAt: "2999-01-01T10:00", radiusKm: "21" });
    const garbled = await as(owner, () => raiseLostAlertAction(idle, form({ tagId: tag.id, timeZone: "Not/AZone", latitude: "1", longitude: "1", lastSeenAt: "yesterday" })));
    expect(garbled.fieldErrors?.lastSeenAt).toBeDefined();
    expect(await alertsOf(tag.id)).toEqual([]);
  });

  it("the fourth alert in 24 hours is a form message (429), as is a tag that is no longer lost (409); someone else's tag is not found", async () => {
    const { owner, tag } = await lostDog();
    const body = { tagId: tag.id, timeZone: "UTC", latitude: "10", longitude: "10" };
    for (let index = 0; index < 3; index++) expect((await as(owner, () => raiseLostAlertAction(idle, form(body)))).status).toBe("success");
    const fourth = await as(owner, () => raiseLostAlertAction(idle, form(body)));
    expect(fourth).toMatchObject({ status: "error", message: expect.stringMatching(/^You have sent 3 alerts for this pet in the last 24 hours\. The next one is possible in (about \d+ hours?|\d+ minutes?)\.$/) });
    expect(await alertsOf(tag.id)).toHaveLength(3);

    const other = await lostDog();
    await forceTagStatus(other.tag.id, "FOUND");
    expect(await as(other.owner, () => raiseLostAlertAction(idle, form({ ...body, tagId: other.tag.id })))).toMatchObject({ status: "error", message: expect.stringMatching(/^Only a pet in lost mode/) });
    const stranger = await registerAccount();
    expect(await as(stranger, () => raiseLostAlertAction(idle, form(body)))).toMatchObject({ status: "error" });
    expect(await alertsOf(tag.id)).toHaveLength(3);
  });
});

describe("/lost/{alertId}: message the owner, I've seen this pet", () => {
  async function openAlert() {
    const dog = await lostDog();
    const state = await as(dog.owner, () => raiseLostAlertAction(idle, form({ tagId: dog.tag.id, timeZone: "UTC", latitude: "48.8566", longitude: "2.3522" })));
    expect(state.status).toBe("success");
    const [alert] = await alertsOf(dog.tag.id);
    return { ...dog, alertId: alert!.id };
  }

  async function threadMessages(token: string) {
    const thread = await threadRowByToken(token);
    return db().select().from(schema.threadMessages).where(eq(schema.threadMessages.threadId, thread!.id)).orderBy(schema.threadMessages.createdAt);
  }

  it("the message form opens a conversation and leads to it", async () => {
    const { alertId } = await openAlert();
    const to = await redirectOf(contactFromAlertAction(idle, form({ alertId, message: "I think I saw her near the station.", finderName: "Sam" })));
    expect(to).toMatch(/^\/thread\/[A-Za-z0-9_-]{43}\?sent=1$/);
  });

  it("a sighting with the phone's position opens the conversation with the place in it", async () => {
    const { alertId } = await openAlert();
    const to = await redirectOf(sightingAction(idle, form({ alertId, latitude: "48.8570", longitude: "-2.3530", accuracy: "12" })));
    const token = /^\/thread\/([A-Za-z0-9_-]{43})\?sent=1$/.exec(to)![1]!;
    const messages = await threadMessages(token);
    expect(messages.map((message) => message.content)[0]).toBe("I've seen this pet.");
    expect(messages.some((message) => message.latitude === 48.857 && message.longitude === -2.353)).toBe(true);
  });

  it("a sighting in words: required, then sent as the first message with its lead-in", async () => {
    const { alertId } = await openAlert();
    expect(await describeSightingAction(idle, form({ alertId, where: "   " }))).toMatchObject({ status: "error", fieldErrors: { where: ["Say where you saw it."] } });
    expect(await describeSightingAction(idle, form({ alertId, where: "x".repeat(2000) }))).toMatchObject({ status: "error", fieldErrors: { where: ["Too long: at most 1800 characters."] } });
    const to = await redirectOf(describeSightingAction(idle, form({ alertId, where: "By the bakery, ten minutes ago." })));
    const token = /^\/thread\/([A-Za-z0-9_-]{43})\?sent=1$/.exec(to)![1]!;
    expect((await threadMessages(token))[0]!.content).toBe("I've seen this pet: By the bakery, ten minutes ago.");
  });

  it("once the pet is home every form says the owner can no longer be messaged through it; an unknown alert is not found", async () => {
    const { tag, alertId } = await openAlert();
    await forceTagStatus(tag.id, "FOUND");
    const closed = "The owner can no longer be messaged through this alert.";
    expect(await contactFromAlertAction(idle, form({ alertId, message: "Hello" }))).toMatchObject({ status: "error", message: closed });
    expect(await sightingAction(idle, form({ alertId, latitude: "48.85", longitude: "2.35" }))).toMatchObject({ status: "error", message: closed });
    expect(await describeSightingAction(idle, form({ alertId, where: "Here" }))).toMatchObject({ status: "error", message: closed });
    expect(await contactFromAlertAction(idle, form({ alertId: randomUUID(), message: "Hello" }))).toMatchObject({ status: "error", message: "Alert not found" });
  });
});
