"use client";

import { useCallback, useEffect, useMemo, useState } from "react";
import { useForm, useWatch, type FieldErrors, type Resolver } from "react-hook-form";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { ZSignPdfFields } from "@/lib/stamp-signing/schemas";
import { layoutStamp } from "@/lib/stamp/layout-stamp";
import { StampPlacer, type PageSize, type StampPosition } from "./stamp-placer";
import { StampPreview } from "./stamp-preview";
import { StampSignerFields, type StampFormValues } from "./stamp-signer-fields";
import "./stamp-page.css";
import { HydratedForm } from "@/components/ui/hydrated-form";

type FieldName = keyof StampFormValues | "position_x" | "position_y";
const formFields: FieldName[] = ["page", "names", "last_names", "person_id_type", "person_id", "nationality", "email", "qr_type", "qr_text", "stamp_size", "sign_type", "sign_username", "sign_password", "sign_pin", "position_x", "position_y"];

/** Validates with the API's own schema (ZSignPdfFields) and reports the first issue of each field. */
function signFieldsResolver(position: () => StampPosition): Resolver<StampFormValues> {
  return async (values) => {
    const result = ZSignPdfFields.safeParse({ ...values, position_x: String(position().x), position_y: String(position().y) });
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? "root");
      errors[key] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<StampFormValues> };
  };
}

type Props = { locale: Locale; maxUploadMb: number; nationality: string };
type Signed = { url: string; name: string; padesLevel: string | null };

export function StampSignForm({ locale, maxUploadMb, nationality }: Props) {
  const t = translatorFor(locale);
  const [pdf, setPdf] = useState<File | null>(null);
  const [image, setImage] = useState<File | null>(null);
  const [imageUrl, setImageUrl] = useState<string | null>(null);
  const [pageCount, setPageCount] = useState(0);
  const [pageSize, setPageSize] = useState<PageSize | null>(null);
  const [position, setPosition] = useState<StampPosition>({ x: 36, y: 36 });
  const [fileErrors, setFileErrors] = useState<{ pdf_file?: string; image?: string; position?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [signed, setSigned] = useState<Signed | null>(null);
  const positionRef = useMemo(() => ({ current: position }), [position]);
  const { register, control, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<StampFormValues>({
    // eslint-disable-next-line react-hooks/refs -- the resolver reads the position when the form is validated (on submit), never during render
    resolver: signFieldsResolver(() => positionRef.current),
    defaultValues: { page: "1", names: "", last_names: "", person_id_type: "DNI", person_id: "", nationality, email: "", qr_type: "", qr_text: "", stamp_size: "1", sign_type: "agente", sign_username: "", sign_password: "", sign_pin: "" },
  });
  const watched = useWatch({ control });
  const size = watched.stamp_size === "2" ? 2 : 1;
  const hasQr = watched.qr_type === "auto" || watched.qr_type === "text";
  const layout = layoutStamp(size, true, hasQr);
  const box = { width: layout.width, height: layout.height };
  const maxBytes = maxUploadMb * 1024 * 1024;

  useEffect(() => () => void (imageUrl && URL.revokeObjectURL(imageUrl)), [imageUrl]);
  useEffect(() => () => void (signed && URL.revokeObjectURL(signed.url)), [signed]);

  // a bigger box or a smaller page can push the stamp off the page: pull it back inside
  useEffect(() => {
    if (!pageSize) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the dragged position is state the user owns; a new page size clamps it once, keeping later drags
    setPosition((p) => {
      const x = Math.max(0, Math.min(p.x, Math.floor(pageSize.width - box.width)));
      const y = Math.max(0, Math.min(p.y, Math.floor(pageSize.height - box.height)));
      return x === p.x && y === p.y ? p : { x, y };
    });
  }, [pageSize, box.width, box.height]);

  const onDocument = useCallback(({ pageCount: count }: { pageCount: number }) => setPageCount(count), []);

  const pickPdf = (file: File | undefined) => {
    setSigned(null);
    setPageCount(0);
    setPageSize(null);
    if (!file) return setPdf(null);
    const wrong = file.type !== "application/pdf" && !file.name.toLowerCase().endsWith(".pdf");
    const error = wrong ? t("stamp.notPdf") : file.size > maxBytes ? `${t("stamp.tooBig")} ${maxUploadMb} MB` : undefined;
    setFileErrors((e) => ({ ...e, pdf_file: error }));
    setPdf(error ? null : file);
  };

  const pickImage = (file: File | undefined) => {
    const wrong = file && !["image/jpeg", "image/png"].includes(file.type) && !/\.(jpe?g|png)$/i.test(file.name);
    setFileErrors((e) => ({ ...e, image: wrong ? t("stamp.notImage") : undefined }));
    const ok = file && !wrong ? file : null;
    setImage(ok);
    setImageUrl(ok ? URL.createObjectURL(ok) : null);
  };

  const onSubmit = handleSubmit(async (values) => {
    setServerError(null);
    setSigned(null);
    const missing = { pdf_file: pdf ? undefined : t("stamp.needPdf"), image: image ? undefined : t("stamp.needImage") };
    setFileErrors(missing);
    if (!pdf || !image) return;
    const form = new FormData();
    for (const [key, value] of Object.entries(values)) if (value !== "") form.append(key, value);
    form.append("position_x", String(position.x));
    form.append("position_y", String(position.y));
    form.append("pdf_file", pdf, pdf.name);
    form.append("image", image, image.name);
    let response: Response;
    try {
      response = await fetch("/api/dashboard/stamp/sign", { method: "POST", body: form });
    } catch {
      return setServerError(t("stamp.network"));
    }
    if (response.ok && response.headers.get("content-type")?.startsWith("application/pdf")) {
      const blob = await response.blob();
      const base = pdf.name.replace(/\.pdf$/i, "");
      return setSigned({ url: URL.createObjectURL(blob), name: `${base}-firmado.pdf`, padesLevel: response.headers.get("x-pades-level") });
    }
    const answer = (await response.json().catch(() => ({}))) as { message?: string; field?: string };
    const message = answer.message ?? `HTTP ${response.status}`;
    const field = answer.field as FieldName | "pdf_file" | "image" | undefined;
    if (field === "pdf_file" || field === "image") return setFileErrors({ [field]: message });
    if (field === "position_x" || field === "position_y") return setFileErrors({ position: message });
    if (field && formFields.includes(field)) return setError(field as keyof StampFormValues, { message });
    setServerError(message);
  });

  const fieldError = (name: keyof StampFormValues) => errors[name] && <p className="field-error" role="alert" id={`${name}-error`}>{errors[name]?.message}</p>;
  const signType = watched.sign_type;
  const lines = [
    `${watched.names || t("stamp.names")} ${watched.last_names || t("stamp.lastNames")}`,
    `${watched.person_id_type}: ${watched.person_id || "…"} · Nacionalidad: ${watched.nationality || "…"}`,
    "Fecha: …",
    signType === "otp" && watched.email ? `Firma: OTP ${watched.email}` : `Firma: ${signType === "otp" ? "OTP" : signType}`,
    "Id: …",
  ];

  return (
    <HydratedForm className="stamp-layout" onSubmit={onSubmit} noValidate data-testid="stamp-sign-form">
      <section className="card stack">
        <h2>{t("stamp.document")}</h2>
        <p className="muted">{t("stamp.help")}</p>
        <div className="grid-2">
          <div>
            <label htmlFor="pdf_file">{t("stamp.pdf")}</label>
            <input id="pdf_file" type="file" accept="application/pdf,.pdf" onChange={(e) => pickPdf(e.target.files?.[0])} aria-invalid={!!fileErrors.pdf_file} />
            {fileErrors.pdf_file && <p className="field-error" role="alert">{fileErrors.pdf_file}</p>}
          </div>
          <div>
            <label htmlFor="page">{t("stamp.page")}</label>
            <select id="page" {...register("page")} disabled={pageCount === 0} aria-invalid={!!errors.page}>
              {Array.from({ length: Math.max(pageCount, 1) }, (_, i) => (
                <option key={i} value={String(i + 1)}>{`${i + 1} ${t("stamp.of")} ${Math.max(pageCount, 1)}`}</option>
              ))}
            </select>
            {fieldError("page")}
          </div>
        </div>
        {pdf && (
          <>
            <p className="muted">{t("stamp.dragHint")}</p>
            <StampPlacer
              file={pdf}
              pageNumber={Number(watched.page) || 1}
              box={box}
              position={position}
              onMove={setPosition}
              onDocument={onDocument}
              onPageSize={setPageSize}
              labels={{ loading: t("stamp.loading"), failed: t("stamp.failed"), box: t("stamp.box"), page: t("stamp.page") }}
            >
              <StampPreview layout={layout} imageUrl={imageUrl} qr={hasQr} lines={lines} />
            </StampPlacer>
          </>
        )}
        <div className="grid-2">
          <div>
            <label htmlFor="position_x">{t("stamp.positionX")}</label>
            <input id="position_x" type="number" min={0} step={1} value={position.x} onChange={(e) => setPosition((p) => ({ ...p, x: Math.max(0, Math.round(Number(e.target.value) || 0)) }))} aria-invalid={!!fileErrors.position} />
          </div>
          <div>
            <label htmlFor="position_y">{t("stamp.positionY")}</label>
            <input id="position_y" type="number" min={0} step={1} value={position.y} onChange={(e) => setPosition((p) => ({ ...p, y: Math.max(0, Math.round(Number(e.target.value) || 0)) }))} aria-invalid={!!fileErrors.position} />
          </div>
        </div>
        {fileErrors.position && <p className="field-error" role="alert">{fileErrors.position}</p>}
      </section>

      <div className="stack">
        <section className="card stack">
          <h2>{t("stamp.stamp")}</h2>
          <div>
            <label htmlFor="image">{t("stamp.image")}</label>
            <input id="image" type="file" accept="image/jpeg,image/png,.jpg,.jpeg,.png" onChange={(e) => pickImage(e.target.files?.[0])} aria-invalid={!!fileErrors.image} />
            {fileErrors.image && <p className="field-error" role="alert">{fileErrors.image}</p>}
          </div>
          <div className="grid-2">
            <div>
              <label htmlFor="stamp_size">{t("stamp.size")}</label>
              <select id="stamp_size" {...register("stamp_size")}>
                <option value="1">{t("stamp.size1")}</option>
                <option value="2">{t("stamp.size2")}</option>
              </select>
            </div>
            <div>
              <label htmlFor="qr_type">{t("stamp.qr")}</label>
              <select id="qr_type" {...register("qr_type")}>
                <option value="">{t("stamp.qrNone")}</option>
                <option value="auto">{t("stamp.qrAuto")}</option>
                <option value="text">{t("stamp.qrText")}</option>
              </select>
            </div>
          </div>
          {watched.qr_type === "text" && (
            <div>
              <label htmlFor="qr_text">{t("stamp.qrTextLabel")}</label>
              <textarea id="qr_text" rows={2} {...register("qr_text")} aria-invalid={!!errors.qr_text} />
              {fieldError("qr_text")}
            </div>
          )}
        </section>

        <StampSignerFields register={register} errors={errors} fieldError={fieldError} t={t} />

        <section className="card stack">
          <fieldset>
            <legend>{t("stamp.signType")}</legend>
            <div className="stack">
              <label className="inline"><input type="radio" value="agente" {...register("sign_type")} /> {t("stamp.agente")}</label>
              <label className="inline"><input type="radio" value="digital" {...register("sign_type")} /> {t("stamp.digital")}</label>
              <label className="inline"><input type="radio" value="otp" {...register("sign_type")} /> {t("stamp.otp")}</label>
            </div>
            {fieldError("sign_type")}
          </fieldset>
          {signType === "digital" && (
            <div className="grid-2" data-testid="digital-credentials">
              <div>
                <label htmlFor="sign_username">{t("stamp.username")}</label>
                <input id="sign_username" type="text" autoComplete="username" {...register("sign_username")} aria-invalid={!!errors.sign_username} />
                {fieldError("sign_username")}
              </div>
              <div>
                <label htmlFor="sign_password">{t("stamp.password")}</label>
                <input id="sign_password" type="password" autoComplete="current-password" {...register("sign_password")} aria-invalid={!!errors.sign_password} />
                {fieldError("sign_password")}
              </div>
              <div>
                <label htmlFor="sign_pin">{t("stamp.pin")}</label>
                <input id="sign_pin" type="password" inputMode="numeric" autoComplete="off" {...register("sign_pin")} aria-invalid={!!errors.sign_pin} aria-describedby="sign_pin-help" />
                <p className="muted" id="sign_pin-help">{t("stamp.pinHelp")}</p>
                {fieldError("sign_pin")}
              </div>
            </div>
          )}
          {serverError && <p className="alert" role="alert">{serverError}</p>}
          <button className="button" type="submit" disabled={isSubmitting}>{isSubmitting ? t("stamp.signing") : t("stamp.sign")}</button>
          {signed && (
            <p className="notice stamp-download" role="status">
              <span>{t("stamp.signed")}</span>
              {signed.padesLevel && <span className="badge" data-testid="signed-pades-level">{t("stamp.level")}: {signed.padesLevel}</span>}
              <a href={signed.url} download={signed.name} data-testid="signed-download">{t("stamp.download")}</a>
            </p>
          )}
        </section>
      </div>
    </HydratedForm>
  );
}
