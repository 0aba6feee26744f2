/**
 * Debian's nginx in front of the shop, with the configuration the README and docs/deployment.md give
 * (tests/integration/platform.test.ts checks that their proxy settings are these):
 * TLS with a throwaway self-signed certificate, the ordinary proxy headers, and Host left as
 * nginx sets it by default (the upstream's address), as many proxies do.
 */
import { launchNginx, nginxPreamble } from "../../scripts/bench/nginx";

export function nginxConfig({ dir, port, upstream }: { dir: string; port: number; upstream: string }) {
  return `${nginxPreamble(dir, 256)}
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
  const nginx = await launchNginx({ dir, port, config: nginxConfig({ dir, port, upstream }) });
  return { url: `https://localhost:${port}`, port, stop: nginx.stop };
}
