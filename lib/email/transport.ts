import { env } from "@/lib/env";
import { createOutboxTransport } from "./outbox-transport";
import { createResendTransport } from "./resend-transport";
import type { EmailTransport } from "./types";

let cached: { key: string | undefined; transport: EmailTransport } | undefined;

/** Resend when RESEND_API_KEY is set, otherwise the outbox table (decisions.md, Configuration). */
export function defaultTransport(): EmailTransport {
  const key = env.RESEND_API_KEY;
  if (!cached || cached.key !== key) {
    cached = { key, transport: key ? createResendTransport({ apiKey: key }) : createOutboxTransport() };
  }
  return cached.transport;
}
