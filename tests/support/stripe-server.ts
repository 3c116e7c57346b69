import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the fake Stripe API saw it: form body decoded into flat `a[b][0]` keys. */
export interface StripeCall {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  form: Record<string, string>;
}

export interface FakeStripe {
  port: number;
  calls: StripeCall[];
  /** The next answers, in order, instead of the normal ones: [status, body]. */
  failNext(...answers: [number, unknown][]): void;
  close(): Promise<void>;
}

const KEY = "sk_test_fake_0123456789";
export const FAKE_STRIPE_KEY = KEY;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

/**
 * A local stand-in for api.stripe.com that answers exactly the calls the adapter makes (checkout sessions,
 * refunds, subscription updates) the way Stripe does: Bearer auth, form-encoded bodies, JSON objects with
 * `object` and ids of the right prefixes, the error envelope `{ error: { type, code, message } }`.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const calls: StripeCall[] = [];
  const failures: [number, unknown][] = [];
  let counter = 0;
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    const url = new URL(req.url ?? "/", "http://localhost");
    const form = Object.fromEntries(new URLSearchParams(text));
    calls.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, form });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": `req_${++counter}`, "stripe-version": String(req.headers["stripe-version"] ?? "") });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${KEY}`) {
      return send(401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }
    const failure = failures.shift();
    if (failure) return send(failure[0], failure[1]);
    const created = Math.floor(Date.now() / 1000);
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const id = `cs_test_${counter}a1b2c3`;
      return send(200, {
        id,
        object: "checkout.session",
        mode: form.mode,
        status: "open",
        payment_status: "unpaid",
        url: `https://checkout.stripe.com/c/pay/${id}`,
        client_reference_id: form.client_reference_id ?? null,
        customer: form.customer ?? null,
        customer_email: form.customer_email ?? null,
        metadata: Object.fromEntries(Object.entries(form).filter(([key]) => key.startsWith("metadata[")).map(([key, value]) => [key.slice(9, -1), value])),
        created,
        livemode: false,
      });
    }
    if (req.method === "POST" && url.pathname === "/v1/refunds") {
      return send(200, { id: `re_${counter}x9`, object: "refund", amount: Number(form.amount ?? 4999), currency: "usd", payment_intent: form.payment_intent, status: "succeeded", created });
    }
    const subscription = url.pathname.match(/^\/v1\/subscriptions\/(sub_\w+)$/);
    if (req.method === "POST" && subscription) {
      return send(200, {
        id: subscription[1],
        object: "subscription",
        status: "active",
        cancel_at_period_end: form.cancel_at_period_end === "true",
        customer: "cus_123",
        items: { object: "list", data: [{ id: "si_1", object: "subscription_item", current_period_start: created, current_period_end: 1_800_000_000 }], has_more: false },
        created,
      });
    }
    send(404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    calls,
    failNext: (...answers) => failures.push(...answers),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
