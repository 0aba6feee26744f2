/**
 * Debian's nginx in front of one or more instances of the shop, as docs/topology.md recommends: TLS
 * (a throwaway self-signed certificate), an upstream group with kept-alive connections, the proxy
 * headers of docs/deployment.md, and `proxy_next_upstream` so a request refused by a stopping
 * instance, or answered 503, goes to another. Listens on 127.0.0.1 only.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pinned, stopProcess } from "./shop";

/** The top of an nginx configuration that keeps all its files in `dir`, up to the opening of `http`'s servers. */
export function nginxPreamble(dir: string, workerConnections: number) {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections ${workerConnections}; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 2m;
`;
}

export function upstreamConfig({ dir, port, upstreams }: { dir: string; port: number; upstreams: string[] }) {
  return `${nginxPreamble(dir, 1024)}
  upstream shop {
${upstreams.map((address) => `    server ${address};`).join("\n")}
    keepalive 32;
  }

  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;

    location / {
      proxy_pass http://shop;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $request_id;
      proxy_next_upstream error timeout http_503;
    }
  }
}
`;
}

/** nginx on `port` in front of `upstreams` (host:port each), optionally pinned to `cpus`. */
export function startUpstreamNginx({
  dir,
  port,
  upstreams,
  cpus,
}: {
  dir: string;
  port: number;
  upstreams: string[];
  cpus?: string;
}) {
  return launchNginx({ dir, port, config: upstreamConfig({ dir, port, upstreams }), cpus });
}

/**
 * Runs Debian's nginx with `config` (written to `dir`, beside a throwaway self-signed certificate for
 * localhost) and waits until it listens on 127.0.0.1:`port`. Also the tests' proxy (tests/setup/nginx.ts).
 */
export async function launchNginx({
  dir,
  port,
  config,
  cpus,
}: {
  dir: string;
  port: number;
  config: string;
  cpus?: string;
}) {
  mkdirSync(dir, { recursive: true });
  const cert = spawnSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  if (cert.status !== 0) throw new Error("openssl could not make a certificate");
  const file = path.join(dir, "nginx.conf");
  writeFileSync(file, config);
  const [command, args] = pinned(cpus, "nginx", ["-c", file, "-p", dir]);
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${errors}`);
    const probe = spawnSync("bash", ["-c", `exec 3<>/dev/tcp/127.0.0.1/${port}`], { stdio: "ignore" });
    if (probe.status === 0) break;
    if (Date.now() > deadline) {
      await stopProcess(child, 3_000);
      throw new Error(`nginx did not listen on ${port}: ${errors}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    /** For clients: nginx listens on 127.0.0.1 only. */
    url: `https://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    errors: () => errors,
    stop: () => stopProcess(child, 3_000),
  };
}
