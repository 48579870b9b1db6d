import { createHmac, randomBytes } from "node:crypto";
import { deriveKey } from "@/lib/crypto/derive-key";
import { tokenMac, tokenMacMatches } from "@/lib/crypto/signed-token";
import { LIVENESS_CHALLENGES, type LivenessChallenge } from "@/lib/faces/measure-challenge";

/** How long after the ticket the frames must arrive: the capture takes ~6 s, the rest is upload on a slow phone. */
export const FACIAL_TICKET_SECONDS = 90;

export interface FacialTicket {
  /** The two movements, in the order the page asks for them. */
  challenges: [LivenessChallenge, LivenessChallenge];
  /** Opaque, HMAC-signed: names the signer, a random nonce and the issue time. */
  ticket: string;
}

/**
 * The movements of one facial try, chosen by the server when the signer starts the capture: two
 * different challenges drawn from a random nonce (not guessable, so a clip prepared in advance
 * fits one try in 14), bound to the signer and valid for FACIAL_TICKET_SECONDS. The ticket carries
 * what the check needs and its HMAC; that it is used once, and how many a signer gets, is kept in
 * the database (facial-ticket-ledger.ts).
 */
export function issueFacialTicket(input: { signerId: string; set?: readonly LivenessChallenge[]; now?: Date }, deps: { secretKey: Uint8Array }): FacialTicket & { nonce: string } {
  const nonce = randomBytes(12).toString("base64url");
  const issuedAt = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const body = `${input.signerId}.${nonce}.${issuedAt}`;
  return { nonce, challenges: challengesOf(deps.secretKey, body, input.set ?? LIVENESS_CHALLENGES), ticket: `${nonce}.${issuedAt}.${tokenMac(deps.secretKey, "facial-ticket", body)}` };
}

/**
 * What a ticket this signer got from us says: its nonce (the key of its ledger row), its challenges,
 * and whether it came back later than FACIAL_TICKET_SECONDS. Null when it is not ours (malformed, or
 * signed for another signer).
 */
export function readFacialTicket(
  input: { signerId: string; ticket: string; set?: readonly LivenessChallenge[]; now?: Date },
  deps: { secretKey: Uint8Array },
): { nonce: string; challenges: FacialTicket["challenges"]; late: boolean } | null {
  const parts = input.ticket.split(".");
  if (parts.length !== 3 || !/^[\w-]{16}$/.test(parts[0]) || !/^\d{1,12}$/.test(parts[1])) return null;
  const [nonce, issued, signature] = parts;
  const body = `${input.signerId}.${nonce}.${issued}`;
  if (!tokenMacMatches(deps.secretKey, "facial-ticket", body, signature)) return null;
  const age = Math.floor((input.now ?? new Date()).getTime() / 1000) - Number(issued);
  return { nonce, challenges: challengesOf(deps.secretKey, body, input.set ?? LIVENESS_CHALLENGES), late: age < -5 || age > FACIAL_TICKET_SECONDS };
}

/**
 * Two different challenges from `set` (the signer's nat flow), in random order, one of them always
 * a head turn: of the movements, a turn is the one measured as a rigid rotation (the nose between
 * the face edges and the face's outline with it, docs/faces.md); the other is any of the rest.
 * 14 ordered pairs with the whole set.
 */
function challengesOf(secretKey: Uint8Array, body: string, set: readonly LivenessChallenge[]): [LivenessChallenge, LivenessChallenge] {
  const digest = createHmac("sha256", deriveKey(secretKey, "facial-challenge")).update(body).digest();
  const turn = TURNS[digest[0] % TURNS.length];
  const others = set.filter((challenge) => challenge !== turn);
  const other = others[digest.readUInt32BE(1) % others.length];
  return digest[5] % 2 === 0 ? [turn, other] : [other, turn];
}

const TURNS: LivenessChallenge[] = ["turn-left", "turn-right"];
