// @ts-check
/** @file A real OpenID Connect provider for the tests (the npm `oidc-provider` package) on a
 * loopback port: one client (the league gateway, a confidential "native" client, so any
 * loopback port of its callback is accepted, RFC 8252 §7.3), the package's development
 * log-in and consent pages (any login is an account whose subject is that login), PKCE
 * required. */

import { createServer } from "node:http";
import Provider from "oidc-provider";

export const CLIENT_ID = "league-browser-tests";
export const CLIENT_SECRET = "browser-tests-client-secret-of-the-identity-provider";

/** Starts the provider; resolves to its issuer address and a stop function. */
export async function startProvider() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the provider has no port");
  const issuer = `http://127.0.0.1:${address.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        application_type: "native",
        redirect_uris: ["http://127.0.0.1/auth/oidc/callback"],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    async findAccount(_ctx, sub) {
      return { accountId: sub, async claims() { return { sub }; } };
    },
    pkce: { required: () => true },
    // Lifetimes in seconds (set, so the package does not warn about its defaults).
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    cookies: { keys: ["browser-tests-provider-cookie-key"] },
  });
  // Keep the console quiet about the development keys and pages (they are the point here).
  provider.on("server_error", (_ctx, error) => console.error("oidc-provider:", error));
  server.on("request", provider.callback());
  return {
    issuer,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
