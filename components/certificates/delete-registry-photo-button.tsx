"use client";

import { useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { deleteRegistryPhotoAction } from "@/app/(staff)/certificates/registry-photo-actions";

export function DeleteRegistryPhotoButton({ locale, photoId, nat, docId }: { locale: Locale; photoId: string; nat: string; docId: string }) {
  const t = translatorFor(locale);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <ConfirmButton
        label={t("registry.delete")}
        title={`${t("registry.deleteTitle")} ${nat} ${docId}?`}
        text={t("registry.deleteText")}
        confirmLabel={t("registry.delete")}
        cancelLabel={t("common.cancel")}
        disabled={pending}
        onConfirm={() => start(async () => {
          const result = await deleteRegistryPhotoAction({ photoId });
          setError(result.ok ? null : result.message);
        })}
      />
      {error && <span className="field-error" role="alert">{error}</span>}
    </>
  );
}
