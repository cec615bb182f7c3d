// @ts-check
/** @file The app's only way to the server: GraphQL over `POST /graphql` and live
 * subscriptions over `/graphql/ws` (graphql-transport-ws), with the session's token. */

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

/** The signed-in session, kept in `sessionStorage` (gone when the browser session ends). */
export const session = {
  /** @returns {string|null} */
  get token() {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  /** @returns {{ kind: "admin" } | { kind: "player", id: string, name: string } | null} */
  get role() {
    const raw = sessionStorage.getItem(ROLE_KEY);
    return raw ? JSON.parse(raw) : null;
  },
  /** @param {string} token @param {{ kind: "admin" } | { kind: "player", id: string, name: string }} role */
  signIn(token, role) {
    sessionStorage.setItem(TOKEN_KEY, token);
    sessionStorage.setItem(ROLE_KEY, JSON.stringify(role));
  },
  signOut() {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(ROLE_KEY);
  },
};

/**
 * Runs a query or mutation; resolves to `data`, rejects with an {@link ApiError}.
 * @param {string} query
 * @param {Record<string, unknown>} [variables]
 * @param {string|null} [token] defaults to the session's token
 * @returns {Promise<any>}
 */
export async function gql(query, variables = {}, token = session.token) {
  /** @type {Record<string, string>} */
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
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
