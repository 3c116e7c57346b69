import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { batchProblem } from "@/lib/email/batch";

/**
 * A local stand-in for Resend's API (POST /emails and POST /emails/batch) that behaves like the real one
 * where our code depends on it: a bearer key is required; a batch is validated whole (strict validation,
 * at most 100 e-mails, no attachments) before anything is sent; an Idempotency-Key answers a repeated
 * request with the first answer without sending again, and a reused key with another body is 409; calls
 * over `ratePerSecond` are 429. Failures can be planned: refuse the next call (nothing sent), or send it
 * and drop the connection before answering (as a network failure after the provider accepted it would).
 */
export interface SentEmail {
  from: string;
  to: string;
  subject: string;
  html?: string;
  text?: string;
  headers?: Record<string, string>;
  id: string;
  /** Which call sent it (1-based, counting only calls that sent). */
  call: number;
}

export interface ResendCall {
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
  /** E-mails in the request body. */
  emails: number;
  at: number;
}

export type PlannedFailure = "refuse" | "drop-after-send";

export interface LocalResend {
  baseUrl: string;
  sent: SentEmail[];
  calls: ResendCall[];
  /** Plans the next call's failure. */
  failNext(kind: PlannedFailure): void;
  reset(): void;
  close(): Promise<void>;
}

interface StoredAnswer {
  bodyHash: string;
  status: number;
  body: unknown;
}

const json = (status: number, body: unknown) => ({ status, body });
const problem = (status: number, name: string, message: string) => json(status, { statusCode: status, name, message });

export async function startLocalResend(options: { ratePerSecond?: number } = {}): Promise<LocalResend> {
  let sent: SentEmail[] = [];
  let calls: ResendCall[] = [];
  let planned: PlannedFailure[] = [];
  let sendingCalls = 0;
  const idempotent = new Map<string, StoredAnswer>();
  const window = { second: 0, used: 0 };

  function deliver(emails: Array<Record<string, unknown>>): { id: string }[] {
    sendingCalls += 1;
    return emails.map((email) => {
      const id = randomUUID();
      for (const to of Array.isArray(email.to) ? email.to : [email.to]) {
        sent.push({
          from: String(email.from),
          to: String(to),
          subject: String(email.subject),
          html: typeof email.html === "string" ? email.html : undefined,
          text: typeof email.text === "string" ? email.text : undefined,
          headers: email.headers as Record<string, string> | undefined,
          id,
          call: sendingCalls,
        });
      }
      return { id };
    });
  }

  function answer(path: string, headers: IncomingHttpHeaders, raw: string): { status: number; body: unknown; drop?: boolean } {
    if (!/^Bearer re_\w+$/.test(headers.authorization ?? "")) return problem(401, "missing_api_key", "Missing API key in the authorization header.");
    if (options.ratePerSecond) {
      const second = Math.floor(Date.now() / 1000);
      if (window.second !== second) Object.assign(window, { second, used: 0 });
      window.used += 1;
      if (window.used > options.ratePerSecond) return problem(429, "rate_limit_exceeded", "Too many requests.");
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return problem(422, "validation_error", "The body is not JSON.");
    }
    const key = typeof headers["idempotency-key"] === "string" ? headers["idempotency-key"] : undefined;
    const bodyHash = createHash("sha256").update(`${path}\n${raw}`).digest("hex");
    if (key) {
      const stored = idempotent.get(key);
      if (stored && stored.bodyHash !== bodyHash) return problem(409, "invalid_idempotent_request", "This idempotency key was used with another request.");
      if (stored) return json(stored.status, stored.body);
    }
    const failure = planned.shift();
    if (failure === "refuse") return problem(500, "internal_server_error", "Planned failure: nothing was sent.");
    let result: { status: number; body: unknown };
    if (path === "/emails/batch") {
      if (!Array.isArray(body)) return problem(422, "validation_error", "The batch must be an array of e-mails.");
      const invalid = batchProblem(body as Array<Record<string, unknown>>);
      if (invalid) return problem(422, "validation_error", invalid);
      result = json(200, { data: deliver(body as Array<Record<string, unknown>>) });
    } else if (path === "/emails") {
      const invalid = batchProblem([body as Record<string, unknown>]);
      if (invalid) return problem(422, "validation_error", invalid);
      result = json(200, deliver([body as Record<string, unknown>])[0]);
    } else {
      return problem(404, "not_found", "Not found.");
    }
    if (key) idempotent.set(key, { bodyHash, ...result });
    return { ...result, drop: failure === "drop-after-send" };
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0]!;
      const result = req.method === "POST" ? answer(path, req.headers, raw) : problem(405, "method_not_allowed", "Method not allowed.");
      let emails = 0;
      try {
        const parsed: unknown = JSON.parse(raw);
        emails = Array.isArray(parsed) ? parsed.length : 1;
      } catch {
        // counted as none
      }
      calls.push({ path, headers: req.headers, status: result.status, emails, at: Date.now() });
      if ("drop" in result && result.drop) {
        req.socket.destroy();
        return;
      }
      res.writeHead(result.status, { "content-type": "application/json" });
      res.end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    get sent() {
      return sent;
    },
    get calls() {
      return calls;
    },
    failNext(kind) {
      planned.push(kind);
    },
    reset() {
      sent = [];
      calls = [];
      planned = [];
      sendingCalls = 0;
      idempotent.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
