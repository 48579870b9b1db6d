"use client";

import { useLayoutEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { PdfViewer } from "@/components/pdf/pdf-viewer";
import type { ReadableDocument } from "@/lib/signers/load-signer-page";
import { ZDeclineSignature } from "@/lib/signers/schemas";
import { callSignerApi, postJson } from "./call-signer-api";
import { signerTranslator, type SignerLocale } from "./signer-messages";
import { useReadingRecord } from "./use-reading-record";
import { HydratedForm } from "@/components/ui/hydrated-form";

/**
 * Read every file, then sign with one button, or decline with a reason. Signing is enabled once the
 * server's record says every page of every file was drawn in view (the viewer proves it per page).
 */
export function ReadAndSign({ locale, api, documents, underReview = false }: { locale: SignerLocale; api: string; documents: ReadableDocument[]; underReview?: boolean }) {
  const t = signerTranslator(locale);
  const router = useRouter();
  const reading = useReadingRecord(api, documents);
  const [signing, setSigning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const allRead = reading.recorded;

  // the step opens at the top of the first file whatever the previous step scrolled (with overflow-anchor: none in the CSS)
  useLayoutEffect(() => {
    // a block body: newer Chromium returns a promise from scrollTo, which React would call as the cleanup
    window.scrollTo({ top: 0, left: 0, behavior: "instant" });
  }, []);

  async function sign() {
    setSigning(true);
    setError(null);
    const answer = await callSignerApi(`${api}/sign`, { method: "POST" });
    if (answer.ok) return router.refresh();
    setSigning(false);
    if (answer.status === 0) return setError(t("error.network"));
    if (answer.status === 401) return setError(t("error.session"));
    if (answer.body.reason === "pages_not_shown") return setError(t("read.notShown"));
    if (answer.body.reason && answer.body.reason !== "document_changed") return router.refresh();
    setError(`${t("sign.failed")} ${answer.body.message ?? ""}`);
  }

  const status = signing
    ? t("sign.signing")
    : allRead
      ? t("read.allShown")
      : reading.shown < reading.total
        ? t("read.scrollHint")
        : reading.failedStatus === null
          ? t("read.recording")
          : "";

  return (
    <section className="stack" aria-labelledby="read-title" data-testid="read-step">
      <div className="signer-card card stack">
        <h1 id="read-title">{t("read.title")}</h1>
        <p>{t("read.lead")}</p>
        {underReview && (
          <p className="notice-warn" data-testid="identity-under-review">
            {t("read.underReview")}
          </p>
        )}
      </div>
      {documents.map((d) => (
        <article key={d.documentId} className="document" aria-labelledby={`doc-${d.documentId}`} data-document-id={d.documentId}>
          <div className="document-head">
            <h2 id={`doc-${d.documentId}`}>{d.name}</h2>
            <span className="muted">
              {d.pages + 1} {t("read.pages")}
            </span>
            <a href={`${api}/documents/${d.documentId}?download=1`} download>
              {t("read.download")}
              <span className="visually-hidden"> {d.name}</span>
            </a>
          </div>
          <PdfViewer
            url={`${api}/documents/${d.documentId}`}
            pages={d.pages + (d.appendStampPage ? 0 : 1)}
            title={d.name}
            mark={{ pageIndex: d.stampPage.pageIndex, page: d.stampPage, rect: d.stampRect, label: t("read.stampHere") }}
            placeholder={d.appendStampPage ? { ...d.stampPage, label: t("read.stampPage") } : undefined}
            labels={{ page: t("read.page"), of: t("read.of"), loading: t("read.loading"), failed: t("read.failed") }}
            onPageShown={(index) => reading.pageShown(d.documentId, index)}
          />
        </article>
      ))}
      <div className="sign-bar" data-testid="sign-bar">
        <p className="sign-progress" data-testid="reading-progress" data-shown={reading.shown} data-total={reading.total} data-recorded-shown={reading.recordedShown} data-recorded={allRead ? "1" : "0"}>
          {t("read.progress", { shown: reading.shown, total: reading.total })}
        </p>
        <button type="button" className="button button-large sign-button" onClick={sign} disabled={!allRead || signing} aria-describedby="sign-status">
          {documents.length > 1 ? t("sign.buttonMany", { n: documents.length }) : t("sign.button")}
        </button>
      </div>
      <div className="card stack">
        <p id="sign-status" className="hint" role="status" aria-live="polite">
          {status}
        </p>
        {signing && <progress aria-label={t("sign.signing")} />}
        {reading.failedStatus !== null && (
          <div className="alert stack" role="alert">
            <p>{reading.failedStatus === 401 ? t("error.session") : reading.failedStatus === 0 ? t("error.network") : t("read.recordFailed")}</p>
            {reading.failedStatus !== 401 && (
              <button type="button" className="button button-secondary" onClick={reading.retry}>
                {t("read.retryRecord")}
              </button>
            )}
          </div>
        )}
        {error && (
          <p className="alert" role="alert">
            {error}
          </p>
        )}
        <DeclineDialog locale={locale} api={api} disabled={signing} />
      </div>
    </section>
  );
}

type DeclineInput = z.input<typeof ZDeclineSignature>;

function DeclineDialog({ locale, api, disabled }: { locale: SignerLocale; api: string; disabled: boolean }) {
  const t = signerTranslator(locale);
  const router = useRouter();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<DeclineInput>({ resolver: zodResolver(ZDeclineSignature), defaultValues: { reason: "" } });
  // eslint-disable-next-line react-hooks/refs -- handleSubmit runs this callback on submit, never during render
  const submit = form.handleSubmit(async (values) => {
    setError(null);
    const answer = await postJson(`${api}/decline`, values);
    if (answer.ok || answer.status !== 0) {
      dialogRef.current?.close();
      return router.refresh();
    }
    setError(t("error.network"));
  });
  return (
    <>
      <button type="button" className="button button-secondary button-block" disabled={disabled} onClick={() => dialogRef.current?.showModal()}>
        {t("decline.open")}
      </button>
      <dialog ref={dialogRef} className="dialog" aria-labelledby="decline-title">
        <HydratedForm onSubmit={submit} className="stack" noValidate>
          <h2 id="decline-title">{t("decline.title")}</h2>
          <p>{t("decline.text")}</p>
          <div>
            <label htmlFor="decline-reason">{t("decline.reason")}</label>
            <textarea id="decline-reason" rows={3} aria-describedby="decline-error" aria-invalid={Boolean(form.formState.errors.reason)} {...form.register("reason")} />
            <p id="decline-error" className="field-error" role="alert">
              {form.formState.errors.reason ? t("decline.reason.required") : error ?? ""}
            </p>
          </div>
          <div className="row wrap">
            <button type="submit" className="button button-danger" disabled={form.formState.isSubmitting}>
              {t("decline.confirm")}
            </button>
            <button type="button" className="button button-secondary" onClick={() => dialogRef.current?.close()}>
              {t("decline.cancel")}
            </button>
          </div>
        </HydratedForm>
      </dialog>
    </>
  );
}
