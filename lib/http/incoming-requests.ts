import http from "node:http";
import { PEER_ADDRESS_HEADER } from "./client-ip";

type PatchedServer = { __peerAddressPatched?: boolean };

/**
 * Stamps each incoming request with its TCP peer address in PEER_ADDRESS_HEADER, overwriting any value
 * a client sent, so clientIp() can tell the real socket address from a forged X-Forwarded-For.
 * Called once from instrumentation, before the server handles requests.
 */
export function stampPeerAddresses(): void {
  const proto = http.Server.prototype as http.Server & PatchedServer;
  if (proto.__peerAddressPatched) return;
  proto.__peerAddressPatched = true;
  const emit = proto.emit;
  proto.emit = function patchedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_ADDRESS_HEADER] = req.socket?.remoteAddress ?? "";
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof proto.emit;
}
