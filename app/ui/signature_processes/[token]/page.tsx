import type { Metadata } from "next";
import { cookies } from "next/headers";
import { getLocale } from "@/lib/i18n/get-translator";
import { getServices } from "@/lib/runtime/services";
import { loadSignerPage } from "@/lib/signers/load-signer-page";
import { SIGNER_SESSION_COOKIE, readSignerSession } from "@/lib/signers/signer-session";
import { SignerShell } from "@/components/signer/signer-shell";
import "@/components/signer/signer-pages.css";
import { LinkProblem } from "@/components/signer/link-problem";
import { IdentifyForm } from "@/components/signer/identify-form";
import { AutoIdentify } from "@/components/signer/auto-identify";
import { NamesForm } from "@/components/signer/names-form";
import { WaitForTurn } from "@/components/signer/wait-for-turn";
import { FacialCheck } from "@/components/signer/facial-check";
import { EidLogin } from "@/components/signer/eid-login";
import { ReadAndSign } from "@/components/signer/read-and-sign";

export const dynamic = "force-dynamic";

// the token in the URL is a credential: keep it out of search engines and Referer headers
export const metadata: Metadata = { title: "Firma de documentos · FirmaViva", robots: { index: false, follow: false }, referrer: "no-referrer" };

/** The page a signer opens from their link; it shows the one step that applies now. */
export default async function SignerPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<{ eid?: string }> }) {
  const { token } = await params;
  const { eid } = await searchParams;
  const services = await getServices();
  const session = readSignerSession(services.config.secretKey, token, (await cookies()).get(SIGNER_SESSION_COOKIE)?.value);
  const [state, locale] = await Promise.all([loadSignerPage({ token, signerId: session?.signerId, sessionId: session?.sessionId }, services), getLocale()]);
  const api = `/api/signer/${token}`;
  const summary = state.step === "problem" ? null : state.summary;
  return (
    <SignerShell locale={locale} step={state.step} stages={state.step === "problem" ? null : state.stages} summary={summary}>
      {state.step === "problem" && <LinkProblem locale={locale} reason={state.reason} receipt={state.receipt} api={api} />}
      {state.step === "identify" && <IdentifyForm locale={locale} api={api} maxAttempts={state.maxAttempts} />}
      {state.step === "auto-identify" && <AutoIdentify locale={locale} api={api} />}
      {state.step === "names" && <NamesForm locale={locale} api={api} proposed={state.proposed} idLabel={state.idLabel} />}
      {state.step === "wait" && <WaitForTurn locale={locale} />}
      {state.step === "facial" && (
        <FacialCheck locale={locale} api={api} attemptsLeft={state.attemptsLeft} needsIdDocument={state.needsIdDocument} reviewRejectedReason={state.reviewRejectedReason} />
      )}
      {state.step === "eid" && <EidLogin locale={locale} api={api} providerName={state.providerName} attemptsLeft={state.attemptsLeft} outcome={eid ?? null} />}
      {state.step === "read" && <ReadAndSign locale={locale} api={api} documents={state.documents} underReview={state.underReview} />}
    </SignerShell>
  );
}
