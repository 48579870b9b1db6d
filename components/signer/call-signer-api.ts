/** What the signer routes answer: `success` plus data, or a `reason` the page translates. */
export type SignerApiAnswer = { ok: boolean; status: number; body: Record<string, unknown> & { reason?: string; message?: string; attemptsLeft?: number } };

/** fetch for the signer routes; a network failure becomes status 0 instead of an exception. */
export async function callSignerApi(url: string, init: RequestInit = {}): Promise<SignerApiAnswer> {
  try {
    const response = await fetch(url, { credentials: "same-origin", ...init });
    const body = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, body };
  } catch {
    return { ok: false, status: 0, body: { reason: "network" } };
  }
}

export const postJson = (url: string, body: unknown) =>
  callSignerApi(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
