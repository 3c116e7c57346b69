import { and, desc, eq, inArray, isNotNull, notInArray } from "drizzle-orm";
import { schema, type Executor } from "@/db/client";
import { log } from "@/lib/log";
import { PushEndpointError, validatePushEndpoint, type EndpointPolicy } from "@/lib/push/endpoint";
import { sendPush, type SendPushOptions } from "@/lib/push/send";
import { vapidKeys } from "@/lib/push/vapid";
import { enqueueJob } from "@/lib/jobs/enqueue";
import { requireUser, withTransaction, type ServiceContext } from "@/lib/services/context";
import { ValidationError } from "@/lib/services/errors";
import { notificationImagePath, notificationOpenPath } from "./actions";
import { isUrgent } from "./rules";

export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** What the service worker (public/sw.js) receives. */
export interface PushPayload {
  id: string;
  type: string;
  title: string;
  body: string;
  url: string;
  createdAt: string;
  /** A picture to show with it (a lost pet's photo), as a path of the app; absent when there is none. */
  image?: string;
}

/** The application server key browsers pass to PushManager.subscribe. */
export function vapidPublicKey(): { publicKey: string } {
  return { publicKey: vapidKeys().publicKey };
}

/**
 * Stores the caller's push subscription for the current device (session). The endpoint must pass
 * the SSRF guard (400 on `subscription.endpoint` otherwise). Subscribing an endpoint again replaces
 * it, also when another account had it (a browser belongs to whoever subscribed it last).
 */
/** Devices (push subscriptions) kept per user; subscribing an eleventh drops the oldest. */
export const MAX_PUSH_DEVICES = 10;

export async function subscribePush(ctx: ServiceContext, subscription: PushSubscriptionInput, userAgent: string | null, policy: EndpointPolicy = {}) {
  const actor = requireUser(ctx);
  try {
    await validatePushEndpoint(subscription.endpoint, policy);
  } catch (error) {
    // A name that does not resolve right now is kept: every delivery resolves and checks it again
    // (docs/decisions/0036-push-ssrf-guard.md), and a push service's DNS blip must not turn push off for the user.
    if (error instanceof PushEndpointError && error.permanent) throw ValidationError.field("subscription.endpoint", error.message);
    if (!(error instanceof PushEndpointError)) throw error;
  }
  const values = {
    userId: actor.userId,
    sessionId: actor.sessionId ?? null,
    endpoint: subscription.endpoint,
    p256dh: subscription.keys.p256dh,
    auth: subscription.keys.auth,
    userAgent: userAgent?.slice(0, 512) ?? null,
  };
  await ctx.db
    .insert(schema.pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: schema.pushSubscriptions.endpoint,
      set: { userId: values.userId, sessionId: values.sessionId, p256dh: values.p256dh, auth: values.auth, userAgent: values.userAgent, createdAt: new Date(), lastSuccessAt: null },
    });
  // At most MAX_PUSH_DEVICES per user: the oldest go, so one account cannot make us push to thousands of endpoints.
  const newest = ctx.db
    .select({ id: schema.pushSubscriptions.id })
    .from(schema.pushSubscriptions)
    .where(eq(schema.pushSubscriptions.userId, actor.userId))
    .orderBy(desc(schema.pushSubscriptions.createdAt), desc(schema.pushSubscriptions.id))
    .limit(MAX_PUSH_DEVICES);
  await ctx.db.delete(schema.pushSubscriptions).where(and(eq(schema.pushSubscriptions.userId, actor.userId), notInArray(schema.pushSubscriptions.id, newest)));
  return { message: "Push notifications are on for this device." };
}

/**
 * Removes the caller's push subscription of the current device (its session), or the one with
 * `endpoint` when given. Only the caller's own subscriptions are ever touched.
 */
export async function unsubscribePush(ctx: ServiceContext, endpoint?: string) {
  const actor = requireUser(ctx);
  const own = eq(schema.pushSubscriptions.userId, actor.userId);
  if (endpoint) {
    await ctx.db.delete(schema.pushSubscriptions).where(and(own, eq(schema.pushSubscriptions.endpoint, endpoint)));
  } else if (actor.sessionId) {
    await ctx.db.delete(schema.pushSubscriptions).where(and(own, eq(schema.pushSubscriptions.sessionId, actor.sessionId)));
  }
  return { message: "Push notifications are off for this device." };
}

export class PushDeliveryError extends Error {
  constructor(readonly failures: { endpoint: string; reason: string }[]) {
    super(`web push failed for ${failures.length} subscription(s): ${failures.map((f) => f.reason).join("; ")}`);
    this.name = "PushDeliveryError";
  }
}

export interface PushReport {
  delivered: number;
  removed: number;
  failed: number;
}

/** What the `notifications.push` job carries: a notification, and the one device to push it to on a per-device run. */
export interface PushJobData {
  notificationId: string;
  subscriptionId?: string;
}

/**
 * The `notifications.push` job. With several devices it enqueues one job per device (in one
 * transaction), so a device that fails is retried alone and the others never get a second copy; with
 * one device, or on a per-device run, it pushes at once.
 */
export async function deliverNotificationPush(ctx: ServiceContext, data: PushJobData, options: SendPushOptions = {}): Promise<PushReport> {
  if (data.subscriptionId) return sendNotificationPush(ctx.db, data.notificationId, { ...options, subscriptionId: data.subscriptionId });
  const [notification] = await ctx.db.select({ userId: schema.notifications.userId }).from(schema.notifications).where(eq(schema.notifications.id, data.notificationId));
  if (!notification) return { delivered: 0, removed: 0, failed: 0 };
  await dropSignedOutDevices(ctx.db, notification.userId);
  const devices = await ctx.db.select({ id: schema.pushSubscriptions.id }).from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.userId, notification.userId));
  if (devices.length <= 1) return sendNotificationPush(ctx.db, data.notificationId, options);
  await withTransaction(ctx, async (tx) => {
    for (const device of devices) await enqueueJob(tx, "notifications.push", { notificationId: data.notificationId, subscriptionId: device.id });
  });
  return { delivered: 0, removed: 0, failed: 0 };
}

/**
 * Removes the push subscriptions of devices that signed out (their session was revoked: sign-out,
 * "sign out everywhere", a password change). A browser keeps its subscription after sign-out, and a
 * shared computer must not keep showing the owner's notifications. An expired session is not
 * signed out: push is for owners who rarely open the app, so it keeps going.
 */
async function dropSignedOutDevices(db: Executor, userId: string): Promise<number> {
  const revoked = db
    .select({ id: schema.sessions.id })
    .from(schema.sessions)
    .where(and(eq(schema.sessions.userId, userId), isNotNull(schema.sessions.revokedAt)));
  const dropped = await db
    .delete(schema.pushSubscriptions)
    .where(and(eq(schema.pushSubscriptions.userId, userId), inArray(schema.pushSubscriptions.sessionId, revoked)))
    .returning({ id: schema.pushSubscriptions.id });
  return dropped.length;
}

/** The push endpoints registered for the caller's current session (the settings page's "on this device"). */
export async function pushEndpointsOfThisDevice(ctx: ServiceContext): Promise<string[]> {
  const actor = requireUser(ctx);
  if (!actor.sessionId) return [];
  const rows = await ctx.db
    .select({ endpoint: schema.pushSubscriptions.endpoint })
    .from(schema.pushSubscriptions)
    .where(and(eq(schema.pushSubscriptions.userId, actor.userId), eq(schema.pushSubscriptions.sessionId, actor.sessionId)));
  return rows.map((row) => row.endpoint);
}

/** Which of the caller's sessions have push on (the sessions page marks them). */
export async function sessionsWithPush(ctx: ServiceContext): Promise<Set<string>> {
  const actor = requireUser(ctx);
  const rows = await ctx.db
    .selectDistinct({ sessionId: schema.pushSubscriptions.sessionId })
    .from(schema.pushSubscriptions)
    .where(and(eq(schema.pushSubscriptions.userId, actor.userId), isNotNull(schema.pushSubscriptions.sessionId)));
  return new Set(rows.map((row) => row.sessionId!));
}

/**
 * Web-pushes one notification to its user's subscriptions (or only `subscriptionId`'s, which may be
 * gone by now). 404/410 (or an endpoint the SSRF guard now refuses) removes that subscription; a
 * success stamps lastSuccessAt; any other failure throws after all were tried, so the job retries.
 */
export async function sendNotificationPush(db: Executor, notificationId: string, options: SendPushOptions & { subscriptionId?: string } = {}): Promise<PushReport> {
  const { subscriptionId, ...pushOptions } = options;
  const report: PushReport = { delivered: 0, removed: 0, failed: 0 };
  const [notification] = await db.select().from(schema.notifications).where(eq(schema.notifications.id, notificationId));
  if (!notification) return report;
  report.removed += await dropSignedOutDevices(db, notification.userId);
  const ofUser = eq(schema.pushSubscriptions.userId, notification.userId);
  const subscriptions = await db
    .select()
    .from(schema.pushSubscriptions)
    .where(subscriptionId ? and(ofUser, eq(schema.pushSubscriptions.id, subscriptionId)) : ofUser);
  if (subscriptions.length === 0) return report;

  const payload: PushPayload = {
    id: notification.id,
    type: notification.type,
    title: notification.title,
    body: notification.body,
    url: notificationOpenPath(notification.id),
    createdAt: notification.createdAt.toISOString(),
  };
  const image = notificationImagePath(notification.data ?? {});
  if (image) payload.image = image;
  const text = JSON.stringify(payload);
  const urgency = pushOptions.urgency ?? (isUrgent(notification.type, notification.data) ? "high" : "normal");

  const results = await Promise.all(
    subscriptions.map(async (subscription) => ({
      subscription,
      result: await sendPush({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, text, { ...pushOptions, urgency }),
    })),
  );

  const gone: string[] = [];
  const delivered: string[] = [];
  const failures: { endpoint: string; reason: string }[] = [];
  for (const { subscription, result } of results) {
    if (result.outcome === "delivered") delivered.push(subscription.id);
    else if (result.outcome === "gone") gone.push(subscription.id);
    else failures.push({ endpoint: new URL(subscription.endpoint).origin, reason: result.reason });
  }
  if (gone.length) await db.delete(schema.pushSubscriptions).where(inArray(schema.pushSubscriptions.id, gone));
  if (delivered.length) await db.update(schema.pushSubscriptions).set({ lastSuccessAt: new Date() }).where(inArray(schema.pushSubscriptions.id, delivered));
  report.delivered = delivered.length;
  report.removed += gone.length;
  report.failed = failures.length;
  if (failures.length) {
    log.warn("web push failed", { notificationId, failures });
    throw new PushDeliveryError(failures);
  }
  return report;
}
