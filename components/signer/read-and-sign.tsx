"use client";

import { useCallback, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { PdfViewer } from "@/components/pdf/pdf-viewer";
import type { ReadableDocument } from "@/lib/signers/load-signer-page";
import { ZDeclineSignature } from "@/lib/signers/schemas";
import { callSignerApi, postJson } from "./call-signer-api";
import { signerTranslator, type SignerLocale } from "./signer-messages";

/** Read every file (scroll to the end or tick the box), then sign with one button, or decline with a reason. */
export function ReadAndSign({ locale, api, documents }: { locale: SignerLocale; api: string; documents: ReadableDocument[] }) {
  const t = signerTranslator(locale);
  const router = useRouter();
  const [reached, setReached] = useState<Set<string>>(new Set());
  const [confirmed, setConfirmed] = useState(false);
  const [signing, setSigning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const allRead = confirmed || documents.every((d) => reached.has(d.documentId));

  const reachedEnd = useCallback((id: string) => setReached((previous) => (previous.has(id) ? previous : new Set(previous).add(id))), []);

  async function sign() {
    setSigning(true);
    setError(null);
    const answer = await callSignerApi(`${api}/sign`, { method: "POST" });
    if (answer.ok) return router.refresh();
    setSigning(false);
    if (answer.status === 0) return setError(t("error.network"));
    if (answer.status === 401) return setError(t("error.session"));
    if (answer.body.reason && answer.body.reason !== "document_changed") return router.refresh();
    setError(`${t("sign.failed")} ${answer.body.message ?? ""}`);
  }

  return (
    <section className="stack" aria-labelledby="read-title">
      <div className="signer-card card stack">
        <h1 id="read-title">{t("read.title")}</h1>
        <p>{t("read.lead")}</p>
      </div>
      {documents.map((d) => (
        <article key={d.documentId} className="document" aria-labelledby={`doc-${d.documentId}`}>
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
            onReachedEnd={() => reachedEnd(d.documentId)}
          />
        </article>
      ))}
      <div className="sign-bar" data-testid="sign-bar">
        <label className="inline checkbox">
          <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />
          {documents.length > 1 ? t("read.confirmAll") : t("read.confirm")}
        </label>
        <button type="button" className="button button-large sign-button" onClick={sign} disabled={!allRead || signing} aria-describedby="sign-status">
          {documents.length > 1 ? t("sign.buttonMany", { n: documents.length }) : t("sign.button")}
        </button>
      </div>
      <div className="card stack">
        <p id="sign-status" className="hint" role="status" aria-live="polite">
          {signing ? t("sign.signing") : allRead && !confirmed ? t("read.reachedEnd") : allRead ? "" : t("read.scrollHint")}
        </p>
        {signing && <progress aria-label={t("sign.signing")} />}
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
        <form onSubmit={submit} className="stack" noValidate>
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
        </form>
      </dialog>
    </>
  );
}
