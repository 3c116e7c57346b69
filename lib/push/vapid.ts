import webpush from "web-push";
import { env, type Env } from "@/lib/env";
import { generatedSecret } from "@/lib/secrets";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The VAPID key pair: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when both are set, else (development and
 * tests) a pair generated once with web-push and kept, both keys together, in DATA_DIR/secrets.json.
 */
export function vapidKeys(e: Env = env): VapidKeys {
  if (e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY) return { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY };
  const stored = generatedSecret("VAPID_KEYS", () => JSON.stringify(webpush.generateVAPIDKeys()), e);
  const parsed = JSON.parse(stored) as VapidKeys;
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}

/** The VAPID `sub` claim: VAPID_SUBJECT, else APP_URL when it is https, else a development mailto:. */
export function vapidSubject(e: Env = env): string {
  if (e.VAPID_SUBJECT) return e.VAPID_SUBJECT;
  const app = new URL(e.APP_URL);
  return app.protocol === "https:" ? app.origin : "mailto:push@tagservice.local";
}
