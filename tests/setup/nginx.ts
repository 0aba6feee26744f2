/**
 * Debian's nginx in front of the shop, with the configuration the README and docs/deployment.md give
 * (tests/integration/platform.test.ts checks that their proxy settings are these):
 * TLS with a throwaway self-signed certificate, the ordinary proxy headers, and Host left as
 * nginx sets it by default (the upstream's address), as many proxies do.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stopProcess } from "../../scripts/bench/shop";

export function nginxConfig({ dir, port, upstream }: { dir: string; port: number; upstream: string }) {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 2m;

  server {
    listen 127.0.0.1:${port} ssl;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;

    location / {
      proxy_pass ${upstream};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $request_id;
    }
  }
}
`;
}

/** Starts nginx on `port` (pick it first with freePort: the shop behind it must know its public URL). */
export async function startNginx({ dir, upstream, port }: { dir: string; upstream: string; port: number }) {
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
  const config = path.join(dir, "nginx.conf");
  writeFileSync(config, nginxConfig({ dir, port, upstream }));
  const child = spawn("nginx", ["-c", config, "-p", dir], { stdio: ["ignore", "ignore", "pipe"] });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  const url = `https://localhost:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${errors}`);
    const probe = spawnSync("bash", ["-c", `exec 3<>/dev/tcp/127.0.0.1/${port}`], { stdio: "ignore" });
    if (probe.status === 0) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port}: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, port, stop: () => stopProcess(child, 3_000) };
}
