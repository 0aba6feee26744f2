/**
 * Webhook deliveries cannot be pointed inside the shop's network: a name whose answer changes
 * between lookups (DNS rebinding) gets each attempt sent to exactly the address that was checked,
 * every inside range is refused after resolution, and the owner's "last answer" reads the same for
 * a closed port, a silent one and one that does not speak TLS. Through the sending code the
 * delivery job runs, with real sockets to receivers on this machine's loopback addresses.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, test } from "vitest";
import { freePort } from "../../server/local-db";
import { isPublicAddress, isPublicHost } from "~/domain/public-host";
import { DeliveryError, NO_ANSWER, sendDelivery, type Resolver } from "~/services/webhook-send.server";

const servers: (http.Server | net.Server)[] = [];
const openSockets = new Set<net.Socket>();
afterAll(async () => {
  for (const socket of openSockets) socket.destroy();
  for (const server of servers) {
    if (server instanceof http.Server) server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** An HTTP receiver on `host:port` that counts what it gets and answers 204. */
async function receiver(host: string, port: number) {
  const got: string[] = [];
  const server = http.createServer((req, res) => {
    got.push(req.url ?? "");
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return got;
}

const endpoint = (url: string) => ({ url, secret: "whsec_test" });
const delivery = { body: '{"id":"evt_1"}', eventId: "evt_1", type: "order.placed", attempts: 1 };

/** A resolver whose answers come from a script, one per lookup (the last one repeats), counting lookups. */
function scripted(...answers: string[]) {
  const asked: string[] = [];
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname);
    const address = answers[Math.min(asked.length - 1, answers.length - 1)];
    return [{ address, family: address.includes(":") ? 6 : 4 }];
  };
  return { resolve, asked };
}

async function failure(attempt: Promise<unknown>) {
  const error = await attempt.then(
    () => null,
    (rejected: unknown) => rejected,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return (error as DeliveryError).message;
}

describe("DNS rebinding", () => {
  test("each attempt connects to the address its one lookup checked, never to what the name answers next", async () => {
    const port = await freePort();
    // 127.0.0.1 stands in for the public address the check allows; 127.0.0.2 for the inside one.
    const outside = await receiver("127.0.0.1", port);
    const inside = await receiver("127.0.0.2", port);
    const allowed = (address: string) => address === "127.0.0.1";
    const dns = scripted("127.0.0.1", "127.0.0.2");
    const url = `http://rebind.example.com:${port}/hook`;

    const options = { timeoutMs: 5000, allowLocalHttp: false, resolve: dns.resolve, allowed };
    expect(await sendDelivery(endpoint(url), delivery, options)).toBe(204);
    // The retries: the name now answers the inside address, which is checked and refused.
    for (let attempt = 2; attempt <= 4; attempt++) {
      expect(await failure(sendDelivery(endpoint(url), { ...delivery, attempts: attempt }, options))).toBe(
        `not delivered: ${NO_ANSWER}`,
      );
    }
    expect(dns.asked).toEqual(Array(4).fill("rebind.example.com"));
    expect(outside).toEqual(["/hook"]);
    expect(inside).toEqual([]);
  });

  test("a name with one inside address among public ones is refused whole", async () => {
    const port = await freePort();
    const got = await receiver("127.0.0.1", port);
    const resolve: Resolver = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ];
    const message = await failure(
      sendDelivery(endpoint(`https://mixed.example.com:${port}/hook`), delivery, {
        timeoutMs: 5000,
        allowLocalHttp: false,
        resolve,
      }),
    );
    expect(message).toBe(`not delivered: ${NO_ANSWER}`);
    expect(got).toEqual([]);
  });
});

describe("addresses refused after resolution", () => {
  test.each([
    ["loopback", "127.0.0.1"],
    ["loopback elsewhere in 127/8", "127.1.2.3"],
    ["private 10/8", "10.1.2.3"],
    ["private 172.16/12", "172.16.0.1"],
    ["private 192.168/16", "192.168.1.1"],
    ["link-local (cloud metadata)", "169.254.169.254"],
    ["carrier-grade NAT", "100.64.0.1"],
    ["multicast", "224.0.0.1"],
    ["unspecified", "0.0.0.0"],
    ["broadcast", "255.255.255.255"],
    ["benchmarking", "198.18.0.1"],
    ["reserved (240/4)", "240.0.0.1"],
    ["IPv6 loopback", "::1"],
    ["IPv6 link-local", "fe80::1"],
    ["IPv6 unique local", "fd12:3456::1"],
    ["IPv6 multicast", "ff02::1"],
    ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
    ["IPv4-mapped private", "::ffff:10.0.0.1"],
    ["NAT64 of loopback", "64:ff9b::7f00:1"],
    ["6to4 of loopback", "2002:7f00:1::1"],
  ])("%s (%s): nothing is sent", async (_label, address) => {
    expect(isPublicAddress(address)).toBe(false);
    const port = await freePort();
    const got = await receiver("127.0.0.1", port);
    const dns = scripted(address);
    const message = await failure(
      sendDelivery(endpoint(`https://inside.example.com:${port}/hook`), delivery, {
        timeoutMs: 2000,
        allowLocalHttp: false,
        resolve: dns.resolve,
      }),
    );
    expect(message).toBe(`not delivered: ${NO_ANSWER}`);
    expect(got).toEqual([]);
  });

  test("a URL naming an inside address directly is refused the same way", async () => {
    for (const url of ["https://127.0.0.1/hook", "https://[::ffff:7f00:1]/hook", "http://127.0.0.1:9/hook"]) {
      expect(await failure(sendDelivery(endpoint(url), delivery, { timeoutMs: 2000, allowLocalHttp: false }))).toBe(
        `not delivered: ${NO_ANSWER}`,
      );
    }
  });

  test("public unicast addresses pass the check", () => {
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:93.184.215.14"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe("what the owner is told", () => {
  test("a closed port, a silent one and one that does not speak TLS read the same", async () => {
    const allowed = (address: string) => address === "127.0.0.1";
    const closed = await freePort();
    // Accepts the connection and says nothing (a port that drops packets looks the same: a timeout).
    const silent = net.createServer((socket) => openSockets.add(socket));
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    // Plain HTTP where HTTPS was asked for.
    const plainPort = await freePort();
    await receiver("127.0.0.1", plainPort);
    const ports = [closed, (silent.address() as AddressInfo).port, plainPort];
    const messages = await Promise.all(
      ports.map((port) =>
        failure(
          sendDelivery(endpoint(`https://scan.example.com:${port}/`), delivery, {
            timeoutMs: 1500,
            allowLocalHttp: false,
            resolve: scripted("127.0.0.1").resolve,
            allowed,
          }),
        ),
      ),
    );
    expect(messages).toEqual(Array(3).fill(`not delivered: ${NO_ANSWER}`));
  });

  test("a name that does not exist, one that leads inside, and a closed port read the same", async () => {
    const closed = await freePort();
    const attempt = (resolve: Resolver, allowed?: (address: string) => boolean) =>
      failure(
        sendDelivery(endpoint(`https://erp.example.com:${closed}/`), delivery, {
          timeoutMs: 1500,
          allowLocalHttp: false,
          resolve,
          allowed,
        }),
      );
    const notFound = Object.assign(new Error("getaddrinfo ENOTFOUND erp.example.com"), { code: "ENOTFOUND" });
    const messages = await Promise.all([
      attempt(() => Promise.reject(notFound)),
      attempt(async () => []),
      attempt(scripted("10.0.0.7").resolve),
      attempt(scripted("127.0.0.1").resolve, (address) => address === "127.0.0.1"),
    ]);
    expect(messages).toEqual(Array(4).fill(`not delivered: ${NO_ANSWER}`));
  });

  test("a receiver's redirect is an answer, not a place to follow the signed body to", async () => {
    const port = await freePort();
    const inside = await receiver("127.0.0.2", port);
    const redirecting = http.createServer((_req, res) =>
      res.writeHead(307, { Location: `http://127.0.0.2:${port}/stolen` }).end(),
    );
    servers.push(redirecting);
    await new Promise<void>((resolve) => redirecting.listen(port, "127.0.0.1", resolve));
    const message = await failure(
      sendDelivery(endpoint(`http://redirect.example.com:${port}/`), delivery, {
        timeoutMs: 2000,
        allowLocalHttp: false,
        resolve: scripted("127.0.0.1").resolve,
        allowed: (address) => address === "127.0.0.1",
      }),
    );
    expect(message).toBe("answered 307");
    expect(inside).toEqual([]);
  });
});

describe("hosts refused when an endpoint is added", () => {
  test("inside ranges and names kept for inside a network are no public server's; public names and addresses are", () => {
    for (const host of [
      "100.64.0.1",
      "198.18.0.1",
      "240.0.0.1",
      "0.0.0.0",
      "[fd00::1]",
      "[::ffff:10.0.0.1]",
      "localhost",
      "localhost.",
      "erp.localhost",
      "printer.local",
      "printer.local.",
      "metadata.google.internal",
      "router.home.arpa",
      "intranet",
    ]) {
      expect(isPublicHost(host), host).toBe(false);
    }
    for (const host of ["erp.example.com", "erp.example.com.", "93.184.215.14", "[2606:4700:4700::1111]"]) {
      expect(isPublicHost(host), host).toBe(true);
    }
  });
});
