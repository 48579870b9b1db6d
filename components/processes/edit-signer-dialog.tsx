"use client";

import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { modifyProcessAction } from "@/app/(staff)/processes/actions";
import { ContactFields } from "./contact-fields";
import { StampStyleFields } from "./stamp-style-fields";
import { changedSignerRequest, editFieldOf, editSignerDefaults, editSignerResolver, type EditSignerValues, type ModifiableSigner } from "./edit-signer-values";
import type { ChangeOutcome } from "./signer-changes";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Props = { processId: string; signer: ModifiableSigner; locale: Locale; onDone: (outcome: ChangeOutcome) => void; disabled?: boolean };

/** Alias, contact and stamp style of a signer who has not signed, in a modal; nat and doc_id never change. */
export function EditSignerDialog({ processId, signer, locale, onDone, disabled }: Props) {
  const t = translatorFor(locale);
  const dialog = useRef<HTMLDialogElement>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const label = `${signer.nat}:${signer.docId}`;
  const idPrefix = `edit-${signer.nat}-${signer.docId}`;
  const { register, handleSubmit, reset, setError, formState: { errors, isSubmitting } } = useForm<EditSignerValues>({
    resolver: editSignerResolver(processId, signer),
    defaultValues: editSignerDefaults(signer),
  });
  const open = () => {
    reset(editSignerDefaults(signer));
    setServerError(null);
    dialog.current?.showModal();
  };
  // eslint-disable-next-line react-hooks/refs -- handleSubmit runs this callback on submit, never during render
  const onSubmit = handleSubmit(async (values) => {
    const request = changedSignerRequest(processId, signer, values);
    if (!request) {
      dialog.current?.close();
      return onDone({ ok: true, text: t("modify.noChanges") });
    }
    const result = await modifyProcessAction(request);
    if (!result.ok) {
      const field = result.field ? editFieldOf(result.field.split(".")) : "root";
      if (field !== "root") setError(field, { message: result.message });
      return setServerError(result.message);
    }
    dialog.current?.close();
    const saved = t("modify.signerSaved").replace("{id}", label);
    onDone({ ok: true, text: "contactInfo" in request.signers[0] && request.signers[0].contactInfo ? `${saved} ${t("modify.contactNotified")}` : saved });
  });
  return (
    <>
      <button type="button" className="button button-secondary" onClick={open} disabled={disabled} aria-label={`${t("modify.edit")} ${label}`}>
        {t("modify.edit")}
      </button>
      <dialog ref={dialog} className="dialog" aria-label={`${t("modify.editTitle")} ${label}`}>
        <HydratedForm className="stack" onSubmit={onSubmit} noValidate>
          <h2>{t("modify.editTitle")} <code>{label}</code></h2>
          <p className="muted">{t("modify.editHelp")}</p>
          <div className="grid-2">
            <div>
              <label htmlFor={`${idPrefix}-alias`}>{t("new.alias")}</label>
              <input id={`${idPrefix}-alias`} type="text" {...register("signerAlias")} aria-invalid={!!errors.signerAlias} />
              {errors.signerAlias && <p className="field-error">{errors.signerAlias.message}</p>}
            </div>
            <ContactFields idPrefix={idPrefix} type={register("contactType")} value={register("contactValue")} error={errors.contactValue?.message} t={t} />
            <StampStyleFields idPrefix={idPrefix} size={register("size")} orientation={register("orientation")} t={t} />
          </div>
          {errors.size && <p className="field-error">{errors.size.message}</p>}
          {(serverError ?? errors.root?.message) && <p className="alert" role="alert">{serverError ?? errors.root?.message}</p>}
          <div className="row wrap">
            <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>{t("common.cancel")}</button>
            <button type="submit" className="button" disabled={isSubmitting}>{isSubmitting ? t("modify.saving") : t("common.save")}</button>
          </div>
        </HydratedForm>
      </dialog>
    </>
  );
}
