import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { form, mockNextRequestScope, redirectOf } from "../support/next-request-scope";

// The tag page's server actions run inside Next's request scope, which a test does not have: `headers()` and
// `cookies()` (the signed-in owner's session cookie), the cache invalidation calls (no cache here) and the
// translations are given here. The wrapper, next-auth, the services and the database are the real ones.
const request = mockNextRequestScope("192.0.2.93");
const { and, eq } = await import("drizzle-orm");
const { getDatabase, schema } = await import("@/db/client");
const { saveLostMode } = await import("@/lib/services/rewards");
const { finderReward } = await import("@/lib/services/rewards");
const { ConflictError, InvalidTransitionError, NotFoundError, ValidationError } = await import("@/lib/services/errors");
const { systemContext } = await import("@/lib/services/context");
const { changeStatusAction, saveLostModeAction } = await import("@/app/(dashboard)/dashboard/tags/[id]/actions");
const { prepareJobs, stopJobs } = await import("@/lib/jobs");
const { registerAccount } = await import("../support/auth");
const { nextTestIp } = await import("../support/http");
const { contactOwnerOf } = await import("../support/messages");
const { giveTestTag, tagEventsOf, tagRow } = await import("../support/tags");

type Account = Awaited<ReturnType<typeof registerAccount>>;

beforeAll(async () => {
  await prepareJobs();
});
afterAll(async () => {
  request.cookie = "";
  await stopJobs();
});

const ownerCtx = (account: Account) => ({ ...systemContext(getDatabase().db), actor: { kind: "user" as const, userId: account.id, role: "USER" as const, ip: "203.0.113.21" } });

function rewardsOf(tagId: string) {
  return getDatabase().db.select().from(schema.rewards).where(eq(schema.rewards.tagId, tagId));
}

async function asOwner<T>(account: Account, work: () => Promise<T>): Promise<T> {
  request.cookie = account.cookie;
  try {
    return await work();
  } finally {
    request.cookie = "";
  }
}

const reward = { amount: 50, currency: "EUR", description: "He is our family." };

describe("saveLostMode: lost mode's one form as one transaction", () => {
  it("turns lost mode on and offers the reward in one go", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    const result = await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "He is shy.", reward });
    expect(result).toMatchObject({ turnedOn: true, reward: "created", tag: { status: "LOST", lostMessage: "He is shy." } });
    expect(await tagRow(tag.id)).toMatchObject({ status: "LOST", lostMessage: "He is shy." });
    expect(await rewardsOf(tag.id)).toEqual([expect.objectContaining({ status: "ACTIVE", amountMinor: 5000, currency: "EUR", description: "He is our family.", ownerId: owner.id })]);
    expect((await tagEventsOf(tag.id)).map((event) => [event.fromStatus, event.toStatus, event.actorKind])).toEqual([["ACTIVE", "LOST", "user"]]);
  });

  it("turns lost mode on without a reward when none is asked for", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Keys" });
    expect(await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: null, reward: null })).toMatchObject({ turnedOn: true, reward: "none", tag: { status: "LOST", lostMessage: null } });
    expect(await rewardsOf(tag.id)).toEqual([]);
  });

  it("writes nothing when the reward is refused: a returned reward still to pay blocks a new one, and the status stays", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    await getDatabase().db.insert(schema.rewards).values({ tagId: tag.id, ownerId: owner.id, amountMinor: 2000, status: "RETURNED", returnedAt: new Date() });
    await expect(saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "He is shy.", reward })).rejects.toBeInstanceOf(ConflictError);
    expect(await tagRow(tag.id)).toMatchObject({ status: "ACTIVE", lostMessage: null });
    expect(await tagEventsOf(tag.id)).toEqual([]);
    expect((await rewardsOf(tag.id)).map((row) => row.status)).toEqual(["RETURNED"]);
    // Asking for no reward is fine: lost mode goes on, the returned reward waits to be paid.
    expect(await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "He is shy.", reward: null })).toMatchObject({ turnedOn: true, reward: "unchanged" });
  });

  it("writes nothing when the database refuses the reward (a body no schema would pass)", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    await expect(saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "He is shy.", reward: { amount: Number.NaN, currency: "EUR" } })).rejects.toThrow();
    expect(await tagRow(tag.id)).toMatchObject({ status: "ACTIVE", lostMessage: null });
    expect(await rewardsOf(tag.id)).toEqual([]);
  });

  it("follows the transition table: a FOUND tag cannot be lost, and nothing is offered", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "FOUND", itemName: "Rex" });
    await expect(saveLostMode(ownerCtx(owner), tag.id, { lostMessage: null, reward })).rejects.toBeInstanceOf(InvalidTransitionError);
    expect(await tagRow(tag.id)).toMatchObject({ status: "FOUND" });
    expect(await rewardsOf(tag.id)).toEqual([]);
  });

  it("another owner's tag is NotFound and is left untouched", async () => {
    const owner = await registerAccount();
    const stranger = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    await expect(saveLostMode(ownerCtx(stranger), tag.id, { lostMessage: "Mine now", reward })).rejects.toBeInstanceOf(NotFoundError);
    expect(await tagRow(tag.id)).toMatchObject({ status: "ACTIVE", lostMessage: null });
    expect(await rewardsOf(tag.id)).toEqual([]);
  });

  it("ten saves at once: one LOST move, one reward, and every save answers", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "He is shy.", reward })));
    expect(results.filter((result) => result.status === "rejected")).toEqual([]);
    const outcomes = results.map((result) => (result as PromiseFulfilledResult<Awaited<ReturnType<typeof saveLostMode>>>).value);
    expect(outcomes.filter((outcome) => outcome.turnedOn)).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.reward === "created")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.reward === "unchanged")).toHaveLength(9);
    expect(await rewardsOf(tag.id)).toHaveLength(1);
    expect((await tagEventsOf(tag.id)).filter((event) => event.toStatus === "LOST")).toHaveLength(1);
  });

  it("while lost, changes the message and the reward in place: the finders' handover codes stay", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "He is shy.", reward });
    const [offered] = await rewardsOf(tag.id);
    const finder = await contactOwnerOf(tag.encryptedId, { message: "I have Rex", finderName: "Ana" }, { ip: nextTestIp() });
    const before = await finderReward(systemContext(getDatabase().db), finder.threadToken);
    expect(before).toMatchObject({ amount: 50, currency: "EUR", handoverCode: expect.stringMatching(/^\d{6}$/) });

    const result = await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "Still missing: reward raised.", reward: { amount: 80, currency: "eur", description: null } });
    expect(result).toMatchObject({ turnedOn: false, reward: "changed", tag: { status: "LOST", lostMessage: "Still missing: reward raised." } });
    const rows = await rewardsOf(tag.id);
    expect(rows).toEqual([expect.objectContaining({ id: offered!.id, status: "ACTIVE", amountMinor: 8000, currency: "EUR", description: null })]);
    const after = await finderReward(systemContext(getDatabase().db), finder.threadToken);
    expect(after).toMatchObject({ amount: 80, handoverCode: before.handoverCode });
    // The owner's notification says what changed; no new status move was recorded.
    const notices = await getDatabase()
      .db.select()
      .from(schema.notifications)
      .where(and(eq(schema.notifications.userId, owner.id), eq(schema.notifications.type, "REWARD_UPDATED")));
    expect(notices.map((row) => row.body)).toContain("You changed the reward for Rex to 80 EUR.");
    expect((await tagEventsOf(tag.id)).map((event) => event.toStatus)).toEqual(["LOST"]);

    // The same values again change nothing.
    expect(await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "Still missing: reward raised.", reward: { amount: 80, currency: "EUR" } })).toMatchObject({ reward: "unchanged" });
  });

  it("while lost, an offered reward is never dropped silently: asking for none is a field error, and the message is not saved either", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "He is shy.", reward });
    const refused = await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "Changed", reward: null }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as InstanceType<typeof ValidationError>).details).toMatchObject({ fieldErrors: { amount: [expect.stringContaining("Withdraw the offer")] } });
    expect(await tagRow(tag.id)).toMatchObject({ status: "LOST", lostMessage: "He is shy." });
    expect((await rewardsOf(tag.id)).map((row) => row.status)).toEqual(["ACTIVE"]);
  });

  it("a stolen tag's alert keeps its status while its message and reward change", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "STOLEN", itemName: "Bike" });
    expect(await saveLostMode(ownerCtx(owner), tag.id, { lostMessage: "Taken from Elm Street.", reward: { amount: 100, currency: "USD" } })).toMatchObject({
      turnedOn: false,
      reward: "created",
      tag: { status: "STOLEN", lostMessage: "Taken from Elm Street." },
    });
  });
});

describe("the tag page's lost-mode form (saveLostModeAction)", () => {
  it("turns lost mode on with the reward typed in the same form", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    const path = await asOwner(owner, () => redirectOf(saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, lostMessage: "He is shy.", amount: "50", currency: "EUR", description: "Thank you!" }))));
    expect(path).toBe(`/dashboard/tags/${tag.id}?notice=lost-on-reward`);
    expect(await tagRow(tag.id)).toMatchObject({ status: "LOST", lostMessage: "He is shy." });
    expect(await rewardsOf(tag.id)).toEqual([expect.objectContaining({ amountMinor: 5000, currency: "EUR", description: "Thank you!" })]);
  });

  it("an empty reward is no reward: lost mode goes on alone", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    const path = await asOwner(owner, () => redirectOf(saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, lostMessage: "", amount: "", currency: "USD", description: "" }))));
    expect(path).toBe(`/dashboard/tags/${tag.id}?notice=status-LOST`);
    expect(await rewardsOf(tag.id)).toEqual([]);
  });

  it("a wrong amount keeps everything typed, beside its field, and changes nothing", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    const typed = { lostMessage: "He is shy.", amount: "fifty", currency: "GBP", description: "Thank you!" };
    const state = await asOwner(owner, () => saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, ...typed })));
    expect(state).toMatchObject({ status: "error", fieldErrors: { amount: ["The amount must be a number, like 50."] }, values: typed });
    expect(Object.keys(state.fieldErrors ?? {})).toEqual(["amount"]);
    // A note without an amount is not dropped either.
    const noAmount = await asOwner(owner, () => saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, ...typed, amount: "" })));
    expect(noAmount).toMatchObject({ status: "error", fieldErrors: { amount: ["Enter the amount, like 50."] }, values: { ...typed, amount: "" } });
    const tooMuch = await asOwner(owner, () => saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, ...typed, amount: "10000.01" })));
    expect(tooMuch).toMatchObject({ status: "error", fieldErrors: { amount: [expect.any(String)] } });
    expect(await tagRow(tag.id)).toMatchObject({ status: "ACTIVE", lostMessage: null });
    expect(await tagEventsOf(tag.id)).toEqual([]);
    expect(await rewardsOf(tag.id)).toEqual([]);
  });

  it("ten submissions at once: every one answers with the page, one reward is offered", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "ACTIVE", itemName: "Rex" });
    request.cookie = owner.cookie;
    try {
      const paths = await Promise.all(Array.from({ length: 10 }, () => redirectOf(saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, lostMessage: "He is shy.", amount: "50", currency: "EUR" })))));
      expect(paths.filter((path) => path.endsWith("notice=lost-on-reward"))).toHaveLength(1);
      expect(paths.filter((path) => path.endsWith("notice=lost-saved"))).toHaveLength(9);
    } finally {
      request.cookie = "";
    }
    expect(await rewardsOf(tag.id)).toHaveLength(1);
    expect(await tagRow(tag.id)).toMatchObject({ status: "LOST" });
  });

  it("while lost, one Save changes the message and the reward; a new reward is announced as offered", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Rex" });
    const offered = await asOwner(owner, () => redirectOf(saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, lostMessage: "Please call.", amount: "20", currency: "USD" }))));
    expect(offered).toBe(`/dashboard/tags/${tag.id}?notice=reward-offered`);
    const changed = await asOwner(owner, () => redirectOf(saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, lostMessage: "Please message me.", amount: "35.50", currency: "USD", description: "" }))));
    expect(changed).toBe(`/dashboard/tags/${tag.id}?notice=lost-saved`);
    expect(await tagRow(tag.id)).toMatchObject({ status: "LOST", lostMessage: "Please message me." });
    expect(await rewardsOf(tag.id)).toEqual([expect.objectContaining({ status: "ACTIVE", amountMinor: 3550 })]);
    // Clearing the amount is not how an offer is withdrawn: answered beside the field, with what was typed.
    const cleared = await asOwner(owner, () => saveLostModeAction({ status: "idle" }, form({ tagId: tag.id, lostMessage: "Gone", amount: "", currency: "USD", description: "" })));
    expect(cleared).toMatchObject({ status: "error", fieldErrors: { amount: [expect.stringContaining("Withdraw the offer")] }, values: { lostMessage: "Gone", amount: "" } });
    expect(await tagRow(tag.id)).toMatchObject({ lostMessage: "Please message me." });
  });
});

describe("the tag page's status control (changeStatusAction)", () => {
  it("moves the tag as the button says, and a move the table refuses is answered on the form", async () => {
    const owner = await registerAccount();
    const tag = await giveTestTag(owner.id, { status: "LOST", itemName: "Rex" });
    const path = await asOwner(owner, () => redirectOf(changeStatusAction({ status: "idle" }, form({ tagId: tag.id, status: "FOUND" }))));
    expect(path).toBe(`/dashboard/tags/${tag.id}?notice=status-FOUND`);
    // A stale page (the tag moved on in another tab): FOUND cannot be switched off.
    const refused = await asOwner(owner, () => changeStatusAction({ status: "idle" }, form({ tagId: tag.id, status: "DEACTIVATED" })));
    expect(refused).toMatchObject({ status: "error", message: "A FOUND tag cannot become DEACTIVATED." });
    expect(await tagRow(tag.id)).toMatchObject({ status: "FOUND" });
  });
});
