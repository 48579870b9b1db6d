"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { ZModifyProcess } from "@/lib/processes/schemas";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { modifyProcessAction } from "@/app/(staff)/processes/actions";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Values = z.input<typeof ZModifyProcess>;

/** The description of an open process, through the same modify use case as the process API. */
export function EditDescriptionForm({ processId, description, locale }: { processId: string; description: string; locale: Locale }) {
  const t = translatorFor(locale);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const { register, handleSubmit, reset, formState: { errors, isSubmitting, isDirty } } = useForm<Values>({
    resolver: zodResolver(ZModifyProcess),
    defaultValues: { process_id: processId, description },
  });
  const onSubmit = handleSubmit(async (values) => {
    const result = await modifyProcessAction({ process_id: processId, description: values.description });
    setMessage({ ok: result.ok, text: result.ok ? t("modify.descriptionSaved") : result.message });
    // the saved text becomes the new baseline, so "dirty" means unsaved again
    if (result.ok) reset({ process_id: processId, description: values.description });
  });
  return (
    <HydratedForm className="stack" onSubmit={onSubmit} noValidate data-testid="edit-description">
      <div>
        <label htmlFor="modify-description">{t("processes.description")}</label>
        <textarea id="modify-description" rows={2} {...register("description")} aria-invalid={!!errors.description} />
        {errors.description && <p className="field-error">{errors.description.message}</p>}
      </div>
      <div className="row wrap">
        <button type="submit" className="button" disabled={isSubmitting || !isDirty}>{isSubmitting ? t("modify.saving") : t("modify.saveDescription")}</button>
      </div>
      {message && <p role="status" className={message.ok ? "notice" : "alert"}>{message.text}</p>}
    </HydratedForm>
  );
}
