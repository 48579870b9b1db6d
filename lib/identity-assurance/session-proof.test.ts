import { describe, expect, it } from "vitest";
import type { FacialCheck } from "@/db/schema";
import type { SignerIdentity } from "./identity-level";
import { EID_VALID_SECONDS, sessionProofProblem } from "./session-proof";

const now = Date.UTC(2026, 10, 28, 12, 0, 0);
const at = (secondsAgo: number) => new Date(now - secondsAgo * 1000).toISOString();
const facial = (session?: string, id = "check-2"): FacialCheck => ({ result: true, msg: "", id, expire: now / 1000 + 600, selfie: "s", ...(session ? { session } : {}) });
const eid = (session: string | undefined, secondsAgo: number): SignerIdentity => ({ level: "eid", method: "oidc", at: at(secondsAgo), ...(session ? { session } : {}) });
const registry = (session: string | undefined, check = "check-2"): SignerIdentity => ({ level: "registry", method: "registry-photo", at: at(10), check, ...(session ? { session } : {}) });

describe("sessionProofProblem: a proof belongs to the session and try that made it", () => {
  it.each([
    ["eid in its own session", ["eid"], eid("A", 60), {}, "A", null],
    ["eid in another session", ["eid"], eid("A", 60), {}, "B", "eid_required"],
    ["eid older than 30 minutes", ["eid"], eid("A", EID_VALID_SECONDS + 1), {}, "A", "eid_required"],
    ["eid recorded without a session", ["eid"], eid(undefined, 60), {}, "A", "eid_required"],
    ["eid and no session cookie", ["eid"], eid("A", 60), {}, undefined, "eid_required"],
    ["facial pass in its own session", ["facial"], registry("A"), { facial: facial("A") }, "A", null],
    ["facial pass in another session", ["facial"], registry("A"), { facial: facial("A") }, "B", "facial_required"],
    ["facial pass recorded without a session", ["facial"], registry(undefined), { facial: facial() }, "A", "facial_required"],
    ["a level proven by an older try", ["facial"], registry("A", "check-1"), { facial: facial("A") }, "A", "facial_required"],
    ["a pass awaiting review, own session", ["facial"], null, { facial: facial("A") }, "A", null],
    ["a pass awaiting review, another session", ["facial"], null, { facial: facial("A") }, "B", "facial_required"],
    ["no challenge", [], null, {}, undefined, null],
  ] as const)("%s", (_name, signChallenges, identity, signData, sessionId, expected) => {
    expect(sessionProofProblem({ signChallenges: [...signChallenges], identity, signData }, sessionId, now)).toBe(expected);
  });
});
