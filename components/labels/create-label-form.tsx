"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { ZLabelBody } from "@/lib/labels/schemas";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { createLabelAction } from "@/app/(staff)/labels/actions";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Values = z.input<typeof ZLabelBody>;

export function CreateLabelForm({ locale }: { locale: Locale }) {
  const t = translatorFor(locale);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const { register, handleSubmit, reset, formState: { errors, isSubmitting } } = useForm<Values>({ resolver: zodResolver(ZLabelBody) });
  const onSubmit = handleSubmit(async (values) => {
    const result = await createLabelAction(values);
    setMessage({ ok: result.ok, text: result.message });
    if (result.ok) reset();
  });
  return (
    <HydratedForm className="card stack" onSubmit={onSubmit} noValidate>
      <h2>{t("labels.new")}</h2>
      <div className="row align-end">
        <div className="grow">
          <label htmlFor="label">{t("labels.name")}</label>
          <input id="label" type="text" {...register("label")} aria-invalid={!!errors.label} />
        </div>
        <button className="button" type="submit" disabled={isSubmitting}>{t("labels.create")}</button>
      </div>
      {errors.label && <p className="field-error">{errors.label.message}</p>}
      {message && <p role="status" className={message.ok ? "muted" : "alert"}>{message.text}</p>}
    </HydratedForm>
  );
}
