"use client";

import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { ZEnrollCertificateHolder } from "@/lib/stamp-signing/schemas";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { enrollHolderAction } from "@/app/(staff)/certificates/actions";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Values = z.input<typeof ZEnrollCertificateHolder>;

/** Enrols a holder with a certificate from the built-in CA or an uploaded PKCS#12 (same schema as the stamp API). */
export function EnrollHolderForm({ locale }: { locale: Locale }) {
  const t = translatorFor(locale);
  const [p12, setP12] = useState<File | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const { register, handleSubmit, control, reset, formState: { errors, isSubmitting } } = useForm<Values>({
    resolver: zodResolver(ZEnrollCertificateHolder),
    defaultValues: { source: "built-in", person_id_type: "DNI", nationality: "PER", validity_days: 365 },
  });
  const source = useWatch({ control, name: "source" });
  const onSubmit = handleSubmit(async (values) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== "") form.append(key, String(value));
    if (source === "pkcs12" && p12) form.append("p12_file", p12);
    const result = await enrollHolderAction(form);
    setMessage({ ok: result.ok, text: result.message });
    if (result.ok) reset();
  });
  const field = (name: keyof Values, label: string, type = "text") => (
    <div>
      <label htmlFor={`holder-${name}`}>{label}</label>
      <input id={`holder-${name}`} type={type} autoComplete="off" {...register(name)} aria-invalid={!!errors[name]} />
      {errors[name] && <p className="field-error">{errors[name]?.message}</p>}
    </div>
  );
  return (
    <HydratedForm className="stack" onSubmit={onSubmit} noValidate aria-labelledby="enroll-title">
      <h3 id="enroll-title">{t("certs.enroll")}</h3>
      <fieldset className="row wrap">
        <legend>{t("certs.source")}</legend>
        <label className="inline"><input type="radio" value="built-in" {...register("source")} /> {t("certs.builtIn")}</label>
        <label className="inline"><input type="radio" value="pkcs12" {...register("source")} /> PKCS#12</label>
      </fieldset>
      <div className="grid-2">
        {field("sign_username", t("certs.username"))}
        {field("sign_password", t("certs.password"), "password")}
        {field("sign_pin", "PIN", "password")}
        {source === "built-in" ? (
          <>
            {field("names", t("certs.names"))}
            {field("last_names", t("certs.lastNames"))}
            {field("person_id", t("certs.personId"))}
            {field("validity_days", t("certs.validityDays"))}
          </>
        ) : (
          <>
            <div>
              <label htmlFor="holder-p12">{t("certs.p12File")}</label>
              <input id="holder-p12" type="file" accept=".p12,.pfx,application/x-pkcs12" onChange={(e) => setP12(e.target.files?.[0] ?? null)} />
            </div>
            {field("p12_password", t("certs.p12Password"), "password")}
          </>
        )}
      </div>
      <button type="submit" className="button" disabled={isSubmitting}>{t("certs.enrollSubmit")}</button>
      {message && <p role="status" className={message.ok ? "notice" : "alert"}>{message.text}</p>}
    </HydratedForm>
  );
}
