/**
 * A local stand-in for Google's OAuth2 endpoints (oauth2-mock-server), for the authorization code
 * flow that remix-auth-google runs. The shop is pointed at it through GOOGLE_AUTHORIZATION_URL,
 * GOOGLE_TOKEN_URL and GOOGLE_USERINFO_URL; nothing else differs from production.
 *
 * The authorize endpoint answers at once (there is no consent screen). A test chooses who "signs
 * in at Google" with the `oauth_mock_user` query parameter or cookie on the authorize request:
 * base64url JSON of a MockGoogleUser. `error` makes Google send the user back with that error
 * instead of a code (`access_denied` is the user pressing Cancel); `tokenError` makes the code
 * exchange fail.
 */
import type { IncomingMessage } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";
import type { Provider } from "./providers";

export type MockGoogleUser = {
  sub?: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  error?: string;
  tokenError?: boolean;
};

export const MOCK_USER_PARAM = "oauth_mock_user";

export const DEFAULT_GOOGLE_USER = {
  sub: "google-default-user",
  email: "gina.google@example.com",
  email_verified: true,
  name: "Gina Google",
  picture: "https://localhost:9/avatars/gina.png",
} satisfies MockGoogleUser;

/** The value of the `oauth_mock_user` parameter or cookie for this identity. */
export function encodeMockUser(user: MockGoogleUser) {
  return Buffer.from(JSON.stringify(user)).toString("base64url");
}

function decodeMockUser(value: string | null | undefined): MockGoogleUser {
  if (!value) return {};
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    return typeof parsed === "object" && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

function requestedUser(req: IncomingMessage): MockGoogleUser {
  const url = new URL(req.url ?? "/", "http://mock");
  const fromQuery = url.searchParams.get(MOCK_USER_PARAM);
  const fromCookie = (req.headers.cookie ?? "")
    .split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === MOCK_USER_PARAM)?.[1];
  return { ...DEFAULT_GOOGLE_USER, ...decodeMockUser(fromQuery ?? fromCookie) };
}

/** The claims of a JWT this server signed (the shop only ever sends back our own tokens). */
function jwtPayload(authorization: string | undefined): Record<string, unknown> | null {
  const token = authorization?.replace(/^Bearer\s+/i, "");
  const payload = token?.split(".")[1];
  if (!payload) return null;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
}

export async function startOAuthServer(): Promise<Provider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const base = `http://127.0.0.1:${server.address().port}`;
  /** Who signed in, by authorization code (each code is used once). */
  const byCode = new Map<string, MockGoogleUser>();

  server.service.on("beforeAuthorizeRedirect", ({ url }: { url: URL }, req: IncomingMessage) => {
    const user = requestedUser(req);
    const code = url.searchParams.get("code");
    if (user.error) {
      url.searchParams.delete("code");
      url.searchParams.set("error", user.error);
      return;
    }
    if (code) byCode.set(code, user);
  });

  server.service.on(
    "beforeTokenSigning",
    (token: { payload: Record<string, unknown> }, req: IncomingMessage & { body?: Record<string, string> }) => {
      const user = byCode.get(req.body?.code ?? "");
      if (!user) return;
      Object.assign(token.payload, {
        sub: user.sub,
        email: user.email,
        email_verified: user.email_verified,
        name: user.name,
        picture: user.picture,
      });
    },
  );

  server.service.on(
    "beforeResponse",
    (response: { body: unknown; statusCode: number }, req: IncomingMessage & { body?: Record<string, string> }) => {
      const code = req.body?.code ?? "";
      const user = byCode.get(code);
      byCode.delete(code);
      if (user?.tokenError) {
        response.statusCode = 400;
        response.body = { error: "invalid_grant", error_description: "Bad authorization code" };
      }
    },
  );

  server.service.on("beforeUserinfo", (response: { body: unknown; statusCode: number }, req: IncomingMessage) => {
    const claims = jwtPayload(req.headers.authorization);
    if (!claims) {
      response.statusCode = 401;
      response.body = { error: "invalid_token" };
      return;
    }
    const name = typeof claims.name === "string" ? claims.name : "";
    const [givenName = "", ...rest] = name.split(" ");
    // The shape of https://www.googleapis.com/oauth2/v3/userinfo.
    response.body = {
      sub: claims.sub,
      name,
      given_name: givenName,
      family_name: rest.join(" "),
      picture: claims.picture,
      email: claims.email,
      email_verified: claims.email_verified,
      locale: "en",
    };
  });

  return {
    env: {
      GOOGLE_CLIENT_ID: "partsworks-test-client",
      GOOGLE_CLIENT_SECRET: "partsworks-test-secret",
      GOOGLE_AUTHORIZATION_URL: `${base}/authorize`,
      GOOGLE_TOKEN_URL: `${base}/token`,
      GOOGLE_USERINFO_URL: `${base}/userinfo`,
    },
    stop: () => server.stop(),
  };
}
