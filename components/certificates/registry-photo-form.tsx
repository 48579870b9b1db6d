"use client";

import { useId, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { MAX_REGISTRY_PHOTO_BYTES, ZRegistryPhotoUpload } from "@/lib/registry-photos/schemas";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Props = {
  locale: Locale;
  /** The organization's enabled ID types; the first is preselected. */
  nationalities: string[];
  /** Replacing: the person is fixed and only the photo is chosen. */
  person?: { nat: string; docId: string };
  onSaved?: () => void;
};

/** Uploads (or replaces) a registry photo with the API's schema: the chosen file's bytes are sniffed here and again on the server (POST /api/dashboard/registry-photos). */
export function RegistryPhotoForm({ locale, nationalities, person, onSaved }: Props) {
  const t = translatorFor(locale);
  const router = useRouter();
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState("photo");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const { register, handleSubmit, setValue, setError, reset, formState: { errors, isSubmitting } } = useForm({
    resolver: zodResolver(ZRegistryPhotoUpload),
    defaultValues: { nat: person?.nat ?? nationalities[0] ?? "PER", doc_id: person?.docId ?? "" },
  });
  register("photo");

  const choose = async (file: File | undefined) => {
    setMessage(null);
    setFileName(file?.name ?? "photo");
    // one byte past the limit is enough to refuse an oversized file without reading all of it
    const bytes = file ? new Uint8Array(await file.slice(0, MAX_REGISTRY_PHOTO_BYTES + 1).arrayBuffer()) : undefined;
    setValue("photo", bytes as Uint8Array<ArrayBuffer>, { shouldValidate: true });
  };

  // eslint-disable-next-line react-hooks/refs -- handleSubmit runs this callback on submit, never during render
  const onSubmit = handleSubmit(async (values) => {
    const form = new FormData();
    form.append("nat", values.nat);
    form.append("doc_id", values.doc_id);
    form.append("photo", new Blob([values.photo as BlobPart]), fileName);
    const response = await fetch("/api/dashboard/registry-photos", { method: "POST", body: form });
    const answer = (await response.json().catch(() => ({}))) as { message?: string; field?: string; nat?: string; docId?: string; replaced?: boolean };
    if (!response.ok) {
      const text = answer.message ?? t("registry.uploadFailed");
      if (answer.field === "nat" || answer.field === "doc_id" || answer.field === "photo") setError(answer.field, { message: text });
      else setMessage({ ok: false, text });
      return;
    }
    setMessage({ ok: true, text: `${t(answer.replaced ? "registry.replacedMessage" : "registry.saved")} ${answer.nat} ${answer.docId}` });
    reset({ nat: values.nat, doc_id: person?.docId ?? "" });
    if (fileInput.current) fileInput.current.value = "";
    // the list and thumbnails are server-rendered: fetch them again
    router.refresh();
    onSaved?.();
  });

  return (
    <HydratedForm className="stack" onSubmit={onSubmit} noValidate data-testid={person ? "registry-replace-form" : "registry-upload-form"}>
      {person ? (
        <>
          <input type="hidden" {...register("nat")} />
          <input type="hidden" {...register("doc_id")} />
        </>
      ) : (
        <div className="grid-2">
          <div>
            <label htmlFor={`${id}-nat`}>{t("registry.nat")}</label>
            <select id={`${id}-nat`} {...register("nat")} aria-invalid={!!errors.nat}>
              {nationalities.map((n) => <option key={n} value={n}>{n}</option>)}
            </select>
            {errors.nat && <p className="field-error">{errors.nat.message}</p>}
          </div>
          <div>
            <label htmlFor={`${id}-doc`}>{t("registry.docId")}</label>
            <input id={`${id}-doc`} type="text" inputMode="text" autoComplete="off" {...register("doc_id")} aria-invalid={!!errors.doc_id} />
            {errors.doc_id && <p className="field-error">{errors.doc_id.message}</p>}
          </div>
        </div>
      )}
      <div>
        <label htmlFor={`${id}-photo`}>{t("registry.file")}</label>
        <input
          id={`${id}-photo`}
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-invalid={!!errors.photo}
          aria-describedby={`${id}-photo-help`}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
        <p id={`${id}-photo-help`} className="muted">{t("registry.uploadHelp")}</p>
        {errors.photo && <p className="field-error" role="alert">{errors.photo.message}</p>}
      </div>
      <div className="row wrap">
        <button type="submit" className="button" disabled={isSubmitting}>{isSubmitting ? t("registry.submitting") : t("registry.submit")}</button>
      </div>
      {message && <p role={message.ok ? "status" : "alert"} className={message.ok ? "notice" : "alert"}>{message.text}</p>}
    </HydratedForm>
  );
}
