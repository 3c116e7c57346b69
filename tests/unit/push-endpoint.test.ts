import { describe, expect, it } from "vitest";
import { classifyAddress, isPublicAddress } from "@/lib/push/address";
import { parsePushEndpoint, PushEndpointError, validatePushEndpoint } from "@/lib/push/endpoint";

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["100.64.0.1", "shared"],
    ["100.127.255.254", "shared"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["224.0.0.251", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "reserved"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:a00:1", "private"],
    ["::ffff:7f00:1", "loopback"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:c0a8:0101::1", "private"],
    ["2001:db8::1", "reserved"],
    ["not-an-ip", "invalid"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "169.253.1.1", "192.169.0.1", "142.250.74.110", "2606:4700:4700::1111", "2a00:1450:4001:80b::200a", "::ffff:8.8.8.8", "2001:4860:4860::8888"])(
    "%s is public",
    (address) => {
      expect(classifyAddress(address)).toBe("public");
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe("parsePushEndpoint (URL rules)", () => {
  it("accepts https push service URLs", () => {
    expect(parsePushEndpoint("https://fcm.googleapis.com/fcm/send/abc", false).hostname).toBe("fcm.googleapis.com");
    expect(parsePushEndpoint("https://updates.push.services.mozilla.com/wpush/v2/x", false).protocol).toBe("https:");
  });

  it.each(["http://fcm.googleapis.com/fcm/send/abc", "ftp://push.example.com/x", "javascript:alert(1)", "file:///etc/passwd", "not a url", "https://user:secret@push.example.com/x", `https://push.example.com/${"a".repeat(2100)}`])(
    "refuses %s",
    (endpoint) => {
      expect(() => parsePushEndpoint(endpoint, false)).toThrow(PushEndpointError);
    },
  );

  it("allows http only when private endpoints are allowed", () => {
    expect(parsePushEndpoint("http://127.0.0.1:9999/push/1", true).port).toBe("9999");
    expect(() => parsePushEndpoint("ftp://127.0.0.1/x", true)).toThrow(PushEndpointError);
  });
});

describe("validatePushEndpoint (addresses)", () => {
  const resolvesTo = (addresses: string[]) => async () => addresses;

  it("accepts a host whose every address is public", async () => {
    const { addresses } = await validatePushEndpoint("https://push.example.com/x", { allowPrivate: false, lookup: resolvesTo(["93.184.216.34", "2606:2800:220:1::1"]) });
    expect(addresses).toEqual(["93.184.216.34", "2606:2800:220:1::1"]);
  });

  it("refuses a host with any non-public address (DNS pointing inside)", async () => {
    await expect(validatePushEndpoint("https://push.example.com/x", { allowPrivate: false, lookup: resolvesTo(["93.184.216.34", "10.1.2.3"]) })).rejects.toThrow(PushEndpointError);
    await expect(validatePushEndpoint("https://push.example.com/x", { allowPrivate: false, lookup: resolvesTo(["::ffff:169.254.169.254"]) })).rejects.toThrow(PushEndpointError);
  });

  it.each(["https://127.0.0.1/x", "https://[::1]/x", "https://[fe80::1]/x", "https://10.0.0.1/x", "https://100.64.1.1/x", "https://[::ffff:10.0.0.1]/x", "https://0.0.0.0/x", "https://2130706433/x", "https://0x7f.1/x"])(
    "refuses the IP literal host of %s without a lookup",
    async (endpoint) => {
      const error = await validatePushEndpoint(endpoint, { allowPrivate: false, lookup: () => Promise.reject(new Error("must not resolve")) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PushEndpointError);
      expect((error as PushEndpointError).permanent).toBe(true);
    },
  );

  it("reports an unresolvable host as a passing failure", async () => {
    const error = await validatePushEndpoint("https://push.example.com/x", { allowPrivate: false, lookup: () => Promise.reject(new Error("ENOTFOUND")) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PushEndpointError);
    expect((error as PushEndpointError).permanent).toBe(false);
  });

  it("resolves localhost with the system resolver and refuses it", async () => {
    await expect(validatePushEndpoint("https://localhost/x", { allowPrivate: false })).rejects.toThrow(PushEndpointError);
  });

  it("accepts loopback and http when private endpoints are allowed", async () => {
    await expect(validatePushEndpoint("http://127.0.0.1:8080/push", { allowPrivate: true })).resolves.toMatchObject({ addresses: ["127.0.0.1"] });
    await expect(validatePushEndpoint("http://localhost:8080/push", { allowPrivate: true })).resolves.toBeDefined();
  });
});
