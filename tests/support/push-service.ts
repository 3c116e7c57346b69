import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local web push service on 127.0.0.1 for tests. Each subscription it hands out has a client key
 * pair (P-256) and auth secret made here, like a browser's. On a push it checks the VAPID
 * `Authorization: vapid t=<JWT>, k=<key>` header (ES256 signature, aud, exp), decrypts the aes128gcm
 * body (RFC 8188 framing, RFC 8291 key derivation) and records the plaintext. Each subscription can
 * be told what to answer (201 by default, or 404, 410, 500, a redirect…).
 */
export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  payload: string;
  vapid: { publicKey: string; claims: { aud: string; exp: number; sub: string } };
  headers: { ttl: string | null; urgency: string | null; contentEncoding: string | null };
}

interface ClientState {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  status: number;
  location?: string;
}

export interface PushService {
  origin: string;
  received: ReceivedPush[];
  /** Requests that failed VAPID or decryption checks (answered 400), with the reason. */
  rejected: { subscriptionId: string; reason: string }[];
  /** All requests, whatever became of them. */
  hits: string[];
  createSubscription(status?: number): TestSubscription;
  answer(subscriptionId: string, status: number, location?: string): void;
  receivedBy(subscriptionId: string): ReceivedPush[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Verifies a VAPID header for a request to `origin`; returns the key and claims or throws. */
export function verifyVapid(header: string | undefined, origin: string): ReceivedPush["vapid"] {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) throw new Error(`not a VAPID authorization header: ${header}`);
  const [, token, key] = match as unknown as [string, string, string];
  const [encodedHeader, encodedClaims, encodedSignature] = token.split(".");
  if (!encodedHeader || !encodedClaims || !encodedSignature) throw new Error("malformed JWT");
  const jwtHeader = JSON.parse(Buffer.from(encodedHeader, "base64url").toString()) as { alg?: string; typ?: string };
  if (jwtHeader.alg !== "ES256") throw new Error(`unexpected JWT alg ${jwtHeader.alg}`);
  const point = Buffer.from(key, "base64url");
  if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33, 65).toString("base64url") },
    format: "jwk",
  });
  const valid = verify("sha256", Buffer.from(`${encodedHeader}.${encodedClaims}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(encodedSignature, "base64url"));
  if (!valid) throw new Error("bad VAPID JWT signature");
  const claims = JSON.parse(Buffer.from(encodedClaims, "base64url").toString()) as { aud: string; exp: number; sub: string };
  if (claims.aud !== origin) throw new Error(`JWT aud ${claims.aud} is not ${origin}`);
  const now = Math.floor(Date.now() / 1000);
  if (!(claims.exp > now && claims.exp <= now + 24 * 60 * 60)) throw new Error(`JWT exp ${claims.exp} out of range`);
  if (!/^(mailto:|https:)/.test(claims.sub ?? "")) throw new Error(`JWT sub ${claims.sub} is not mailto:/https:`);
  return { publicKey: key, claims };
}

/** Decrypts an aes128gcm web push message (RFC 8291 over RFC 8188) for the client's keys. */
export function decryptAes128gcm(body: Buffer, client: { ecdh: ReturnType<typeof createECDH>; auth: Buffer }): string {
  if (body.length < 21) throw new Error("body too short for the aes128gcm header");
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, expected the 65-byte server key`);
  const records = body.subarray(21 + idLength);
  if (records.length > recordSize) throw new Error("more than one record");
  const clientPublic = client.ecdh.getPublicKey();
  const ecdhSecret = client.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), clientPublic, serverPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, client.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error("missing last-record padding delimiter");
  return padded.subarray(0, end).toString("utf8");
}

export async function startPushService(): Promise<PushService> {
  const clients = new Map<string, ClientState>();
  const received: ReceivedPush[] = [];
  const rejected: PushService["rejected"] = [];
  const hits: string[] = [];

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const id = /^\/push\/([^/?]+)$/.exec(req.url ?? "")?.[1] ?? "";
    hits.push(id);
    const body = await readBody(req);
    const client = clients.get(id);
    if (req.method !== "POST" || !client) {
      res.writeHead(404).end();
      return;
    }
    try {
      if (req.headers["content-encoding"] !== "aes128gcm") throw new Error(`content-encoding ${req.headers["content-encoding"]}`);
      // The JWT's audience is the origin the sender addressed, as the Host header carries it.
      const vapid = verifyVapid(req.headers.authorization, `http://${req.headers.host ?? ""}`);
      const payload = decryptAes128gcm(body, client);
      received.push({
        subscriptionId: id,
        payload,
        vapid,
        headers: { ttl: req.headers.ttl?.toString() ?? null, urgency: req.headers.urgency?.toString() ?? null, contentEncoding: req.headers["content-encoding"] ?? null },
      });
    } catch (error) {
      rejected.push({ subscriptionId: id, reason: error instanceof Error ? error.message : String(error) });
      res.writeHead(400).end();
      return;
    }
    res.writeHead(client.status, client.location ? { Location: client.location } : {}).end();
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    rejected,
    hits,
    createSubscription(status = 201) {
      const id = randomUUID();
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      clients.set(id, { ecdh, auth, status });
      return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
    },
    answer(subscriptionId, status, location) {
      const client = clients.get(subscriptionId);
      if (!client) throw new Error(`unknown subscription ${subscriptionId}`);
      client.status = status;
      client.location = location;
    },
    receivedBy(subscriptionId) {
      return received.filter((push) => push.subscriptionId === subscriptionId);
    },
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
