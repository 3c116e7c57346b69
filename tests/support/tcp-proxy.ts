import net from "node:net";

/**
 * A TCP proxy on a loopback port that can be cut and restored, to take a real PostgreSQL away from
 * the app and give it back. In `blackhole` mode it accepts connections and never answers.
 */
export class TcpProxy {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;

  constructor(
    private readonly target?: { host: string; port: number },
    private mode: "forward" | "blackhole" = target ? "forward" : "blackhole",
  ) {}

  async start(port = 0): Promise<number> {
    this.server = net.createServer((client) => {
      this.sockets.add(client);
      client.on("close", () => this.sockets.delete(client));
      client.on("error", () => {});
      if (this.mode === "blackhole" || !this.target) return;
      const upstream = net.connect(this.target.port, this.target.host);
      this.sockets.add(upstream);
      upstream.on("close", () => this.sockets.delete(upstream));
      upstream.on("error", () => client.destroy());
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Closes the listener and every open connection: the database "goes away". */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

/** A loopback port with nothing listening on it. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
