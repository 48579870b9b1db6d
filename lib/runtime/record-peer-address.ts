import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { PEER_ADDRESS_HEADER } from "@/lib/config/client-address";
import { processSingleton } from "@/lib/process-wide/singleton";

type RequestStart = { request: IncomingMessage; socket: Socket };

/**
 * Next hands route handlers, server actions and next-auth a copy of the request headers but never
 * the socket. Node publishes every incoming request on this channel before the server sees it, so
 * the socket's peer is written into our own header there, replacing whatever a client put in it:
 * the one address a client cannot choose (lib/config/client-address.ts).
 */
export function recordPeerAddresses(): void {
  processSingleton("firmaviva.peer-address-recorder", () =>
    diagnosticsChannel.subscribe("http.server.request.start", (message) => {
      const { request, socket } = message as RequestStart;
      request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? "";
    }),
  );
}
