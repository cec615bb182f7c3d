// @ts-check
/** @file The app's only way to the server: GraphQL over `POST /graphql` and live
 * subscriptions over `/graphql/ws` (graphql-transport-ws), signed in by the session cookie
 * (with its CSRF token) or the admin's token; and signing in and out (`/auth/…`). */

const TOKEN_KEY = "league.token";
const ROLE_KEY = "league.role";

/** @typedef {{ message: string, path?: (string|number)[], extensions?: { code?: string, field?: string } }} GraphQLErrorEntry */

/** A refused request: the server's errors, with their codes and fields. */
export class ApiError extends Error {
  /** @param {GraphQLErrorEntry[]} errors */
  constructor(errors) {
    super(errors.map((e) => e.message).join("; "));
    this.errors = errors;
  }
  /** The first error's `extensions.code`. */
  get code() {
    return this.errors[0]?.extensions?.code ?? "ERROR";
  }
}

/** @typedef {{ kind: "admin" } | { kind: "player", id: string, name: string }} Role */

/** What `GET /auth/session` said: the player the session cookie signs in, and the CSRF
 * token this page sends with its requests (the cookie itself is out of the page's reach). */
let cookieSession = /** @type {{ role: Role, csrf: string } | null} */ (null);

/**
 * Who is signed in. A player is signed in by a session cookie that lasts (docs/sign-in.md);
 * the admin's token is kept in `sessionStorage` (gone when the browser session ends).
 */
export const session = {
  /** The admin's token, if the admin signed in on this tab. @returns {string|null} */
  get token() {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  /** @returns {Role|null} */
  get role() {
    const raw = sessionStorage.getItem(ROLE_KEY);
    return raw ? JSON.parse(raw) : cookieSession?.role ?? null;
  },
  /** The CSRF token of the session cookie. @returns {string|null} */
  get csrf() {
    return cookieSession?.csrf ?? null;
  },
  /** Reads who the session cookie signs in (once per page load, and after signing in). */
  async refresh() {
    cookieSession = sessionAnswer(await authRequest("GET", "/auth/session"));
  },
  /** Signs the admin in on this tab. @param {string} token */
  signInAdmin(token) {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(ROLE_KEY, JSON.stringify({ kind: "admin" }));
  },
  /** Exchanges a player's token for a session cookie. @param {string} token */
  async signInWithToken(token) {
    cookieSession = sessionAnswer(await authRequest("POST", "/auth/token", { token }));
  },
  /** Exchanges a sign-in link's secret for a session cookie. @param {string} secret */
  async signInWithLink(secret) {
    cookieSession = sessionAnswer(await authRequest("POST", "/auth/link", { secret }));
  },
  /** Signs this browser out (the admin's tab, or the player's session on every gateway). */
  async signOut() {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(ROLE_KEY);
    if (cookieSession) await authRequest("POST", "/auth/sign-out").catch(() => null);
    cookieSession = null;
  },
  /** Forgets the cookie session without asking the server (it no longer knows it). */
  forget() {
    cookieSession = null;
  },
};

/** The session an `/auth/…` answer describes. @param {any} answer */
function sessionAnswer(answer) {
  return answer?.signedIn && answer.player
    ? { role: /** @type {Role} */ ({ kind: "player", id: answer.player.id, name: answer.player.name }), csrf: answer.csrf }
    : null;
}

/**
 * A JSON request to `/auth/…`; rejects with an {@link ApiError} carrying the server's code.
 * @param {"GET"|"POST"} method @param {string} path @param {Record<string, unknown>} [body]
 */
async function authRequest(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { "content-type": "application/json" };
  if (cookieSession) headers["x-csrf-token"] = cookieSession.csrf;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined, credentials: "same-origin" });
  } catch {
    throw new ApiError([{ message: "the server cannot be reached", extensions: { code: "NETWORK" } }]);
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) {
    const error = answer?.error ?? { code: "HTTP", message: `the server answered ${response.status}` };
    throw new ApiError([{ message: error.message, extensions: { code: error.code, field: error.field } }]);
  }
  return answer;
}

const RETURN_KEY = "league.returnTo";

/** Remembers the page a person leaves to sign in. @param {string} path */
export function rememberReturn(path) {
  if (path.startsWith("/") && !path.startsWith("/signin")) sessionStorage.setItem(RETURN_KEY, path);
}

/** The page to go to after signing in: the one the person came from, else their own page. */
export function returnPath() {
  const kept = sessionStorage.getItem(RETURN_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  const role = session.role;
  return kept ?? (role?.kind === "player" ? `/players/${role.id}` : role?.kind === "admin" ? "/admin" : "/");
}

/**
 * Runs a query or mutation; resolves to `data`, rejects with an {@link ApiError}.
 * @param {string} query
 * @param {Record<string, unknown>} [variables]
 * @param {string|null} [token] defaults to the admin's token (a player is signed in by the cookie)
 * @returns {Promise<any>}
 */
export async function gql(query, variables = {}, token = session.token) {
  /** @type {Record<string, string>} */
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  else if (session.csrf) headers["x-csrf-token"] = session.csrf;
  let response;
  try {
    response = await fetch("/graphql", { method: "POST", headers, body: JSON.stringify({ query, variables }) });
  } catch {
    throw new ApiError([{ message: "the server cannot be reached", extensions: { code: "NETWORK" } }]);
  }
  /** @type {{ data?: any, errors?: GraphQLErrorEntry[] }} */
  let body;
  try {
    body = await response.json();
  } catch {
    throw new ApiError([{ message: `the server answered ${response.status}`, extensions: { code: "HTTP" } }]);
  }
  if (body.errors && body.errors.length > 0) throw new ApiError(body.errors);
  return body.data;
}

/**
 * Subscribes over graphql-transport-ws; `onData` gets each `data`. Returns a function
 * that ends the subscription and closes the socket. Reconnects after a dropped socket.
 * @param {string} query
 * @param {Record<string, unknown>} variables
 * @param {(data: any) => void} onData
 * @param {(connected: boolean) => void} [onState]
 * @returns {() => void}
 */
export function subscribe(query, variables, onData, onState = () => {}) {
  let closed = false;
  /** @type {WebSocket|null} */
  let socket = null;
  /** @type {ReturnType<typeof setTimeout>|undefined} */
  let retry;
  const open = () => {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql/ws`;
    const ws = new WebSocket(url, "graphql-transport-ws");
    socket = ws;
    ws.addEventListener("open", () => {
      const token = session.token;
      ws.send(JSON.stringify({ type: "connection_init", payload: token ? { authorization: `Bearer ${token}` } : {} }));
    });
    ws.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data));
      if (message.type === "connection_ack") {
        onState(true);
        ws.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query, variables } }));
      } else if (message.type === "next" && message.payload?.data) {
        onData(message.payload.data);
      } else if (message.type === "ping") {
        ws.send(JSON.stringify({ type: "pong" }));
      }
    });
    ws.addEventListener("close", () => {
      onState(false);
      if (!closed) retry = setTimeout(open, 2000);
    });
  };
  open();
  return () => {
    closed = true;
    clearTimeout(retry);
    const ws = socket;
    if (!ws) return;
    if (ws.readyState === WebSocket.CONNECTING) {
      // Closing a socket that is still connecting makes the browser log an error.
      ws.addEventListener("open", () => ws.close(1000));
    } else if (ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({ id: "1", type: "complete" }));
      ws.close(1000);
    }
  };
}
