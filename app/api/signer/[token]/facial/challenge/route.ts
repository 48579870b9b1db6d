import { startFacialTry } from "@/lib/signers/start-facial-try";
import { withSignerLink } from "@/lib/http/with-signer-link";

export const dynamic = "force-dynamic";

/** Starts a facial try: `{challenges: [first, second], ticket}`; the frames must follow within 90 s. */
export const POST = withSignerLink({ session: "required" }, async (_request, { token, signerId, services }) => {
  const ticket = await startFacialTry({ token, signerId: signerId! }, { db: services.db, blobs: services.blobs, secretKey: services.config.secretKey, facePool: services.pools.face });
  return Response.json({ success: true, ...ticket }, { headers: { "cache-control": "no-store" } });
});
