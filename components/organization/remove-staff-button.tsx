"use client";

import { useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { removeStaffUserAction } from "@/app/(staff)/organization/actions";

export function RemoveStaffButton({ userId, email, locale }: { userId: string; email: string; locale: Locale }) {
  const t = translatorFor(locale);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <ConfirmButton
        label={t("org.remove")}
        title={`${t("org.removeTitle")} ${email}?`}
        text={t("org.removeText")}
        confirmLabel={t("org.remove")}
        cancelLabel={t("common.cancel")}
        disabled={pending}
        onConfirm={() => start(async () => {
          const result = await removeStaffUserAction({ userId });
          setError(result.ok ? null : result.message);
        })}
      />
      {error && <span className="field-error" role="alert">{error}</span>}
    </>
  );
}
