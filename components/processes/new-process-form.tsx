"use client";

import { useRef, useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { useRouter } from "next/navigation";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { emptySigner, processFieldsResolver, toProcessFields, type NewProcessValues } from "./new-process-values";
import { SignerFields } from "./signer-fields";
import { StampGridPreview } from "./stamp-grid-preview";
import { uploadWithProgress } from "./upload-with-progress";
import { HydratedForm } from "@/components/ui/hydrated-form";

/** `eidProvider`: the display name of the organization's OpenID Connect provider, null without one. */
type Props = { locale: Locale; maxUploadMb: number; nationalities: string[]; labels: string[]; eidProvider: string | null };

export function NewProcessForm({ locale, maxUploadMb, nationalities, labels, eidProvider }: Props) {
  const t = translatorFor(locale);
  const router = useRouter();
  const [files, setFiles] = useState<File[]>([]);
  const filesRef = useRef<File[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, control, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<NewProcessValues>({
    // eslint-disable-next-line react-hooks/refs -- the resolver counts the files when the form is validated (on submit), never during render
    resolver: processFieldsResolver(() => filesRef.current.length),
    defaultValues: { signers: [emptySigner(nationalities[0])], signOrder: false, expireDays: "30", description: "", urlCallback: "", labels: [] },
  });
  const signers = useFieldArray({ control, name: "signers" });
  const watched = useWatch({ control, name: "signers" }) ?? [];
  const maxBytes = maxUploadMb * 1024 * 1024;

  const pickFiles = (list: FileList | null) => {
    const picked = Array.from(list ?? []);
    const wrong = picked.find((f) => f.type !== "application/pdf" && !f.name.toLowerCase().endsWith(".pdf"));
    const big = picked.find((f) => f.size > maxBytes);
    setFileError(wrong ? `${wrong.name}: ${t("new.notPdf")}` : big ? `${big.name}: ${t("new.tooBig")} ${maxUploadMb} MB` : null);
    const ok = wrong || big ? [] : picked;
    filesRef.current = ok;
    setFiles(ok);
  };

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    if (files.length === 0) return setFileError(t("new.needFile"));
    const form = new FormData();
    for (const [key, value] of Object.entries(toProcessFields(values, files.length))) {
      if (value !== undefined) form.append(key, typeof value === "string" ? value : JSON.stringify(value));
    }
    files.forEach((f) => form.append("pdfFiles", f, f.name));
    setProgress(0);
    try {
      const { status, body } = await uploadWithProgress("/api/dashboard/processes", "PUT", form, setProgress);
      const answer = body as { id?: string; message?: string; field?: string };
      if (status === 201 && answer.id) return router.push(`/processes/${encodeURIComponent(answer.id)}`);
      const field = answer.field?.replace(/^signers\.(\d+)\.contactInfo.*/, "signers.$1.contactValue").replace(/^signers\.(\d+)\.signChallenges.*/, "signers.$1.identity");
      if (field && /^(signers\.\d+\.(nat|doc_id|contactValue|identity)|labels|urlCallback|description)$/.test(field)) {
        setError(field as keyof NewProcessValues, { message: answer.message });
      }
      setServerError(answer.message ?? `HTTP ${status}`);
    } catch {
      setServerError(t("new.network"));
    } finally {
      setProgress(null);
    }
  });

  return (
    <HydratedForm className="stack" onSubmit={onSubmit} noValidate>
      <section className="card stack">
        <h2>{t("new.files")}</h2>
        <label htmlFor="pdfFiles">{t("new.pickFiles")} <span className="muted">({t("new.maxSize")} {maxUploadMb} MB)</span></label>
        <input id="pdfFiles" type="file" accept="application/pdf,.pdf" multiple onChange={(e) => pickFiles(e.target.files)} />
        {fileError && <p className="field-error" role="alert">{fileError}</p>}
        {files.length > 0 && <ul>{files.map((f) => <li key={f.name}>{f.name} <span className="muted">({(f.size / 1024).toFixed(0)} KB)</span></li>)}</ul>}
      </section>
      <section className="card stack">
        <h2>{t("new.signers")}</h2>
        {signers.fields.map((field, i) => (
          <SignerFields key={field.id} index={i} nationalities={nationalities} register={register} errors={errors} eidProvider={eidProvider} t={t} onRemove={signers.fields.length > 1 ? () => signers.remove(i) : undefined} />
        ))}
        <div className="row">
          <button type="button" className="button button-secondary" onClick={() => signers.append(emptySigner(nationalities[0]))} disabled={signers.fields.length >= 20}>
            {t("new.addSigner")}
          </button>
          <label className="inline"><input type="checkbox" {...register("signOrder")} /> {t("new.signOrder")}</label>
        </div>
        <h3>{t("new.preview")}</h3>
        <StampGridPreview
          overflowText={t("new.overflow")}
          signers={watched.map((s, i) => ({ label: s.signerAlias || s.doc_id || `${t("new.signer")} ${i + 1}`, size: s.size === "2" ? 2 : 1, orientation: s.orientation }))}
        />
      </section>
      <section className="card stack">
        <h2>{t("new.settings")}</h2>
        <div className="grid-2">
          <div>
            <label htmlFor="expireDays">{t("new.expireDays")}</label>
            <input id="expireDays" type="text" inputMode="decimal" {...register("expireDays")} aria-invalid={!!errors.expireDays} />
            {errors.expireDays && <p className="field-error">{errors.expireDays.message}</p>}
          </div>
          <div>
            <label htmlFor="urlCallback">{t("new.callback")}</label>
            <input id="urlCallback" type="text" placeholder="https://" {...register("urlCallback")} aria-invalid={!!errors.urlCallback} />
            {errors.urlCallback && <p className="field-error">{errors.urlCallback.message}</p>}
          </div>
        </div>
        <div>
          <label htmlFor="description">{t("processes.description")}</label>
          <textarea id="description" rows={2} {...register("description")} />
        </div>
        <fieldset>
          <legend>{t("processes.labels")}</legend>
          {labels.length === 0 && <p className="muted">{t("new.noLabels")}</p>}
          <div className="row wrap">
            {labels.map((l) => <label key={l} className="inline"><input type="checkbox" value={l} {...register("labels")} /> {l}</label>)}
          </div>
          {errors.labels && <p className="field-error">{errors.labels.message}</p>}
        </fieldset>
      </section>
      {serverError && <p className="alert" role="alert">{serverError}</p>}
      {progress !== null && (
        <div>
          <label htmlFor="upload-progress">{t("new.uploading")} {Math.round(progress * 100)}%</label>
          <progress id="upload-progress" max={1} value={progress} />
        </div>
      )}
      <button className="button" type="submit" disabled={isSubmitting}>{isSubmitting ? t("new.creating") : t("new.create")}</button>
    </HydratedForm>
  );
}
