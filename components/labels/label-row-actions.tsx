"use client";

import { useState, useTransition } from "react";
import { ZLabelName } from "@/lib/labels/schemas";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { deleteLabelAction, renameLabelAction } from "@/app/(staff)/labels/actions";
import { HydrationGate } from "@/components/ui/hydrated-form";

/** Rename (inline) and delete (after a confirmation dialog) for one label. */
export function LabelRowActions({ label, owner, locale }: { label: string; owner: string; locale: Locale }) {
  const t = translatorFor(locale);
  const [pending, start] = useTransition();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(label);
  const [error, setError] = useState<string | null>(null);
  const rename = () => {
    const parsed = ZLabelName.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0].message);
    start(async () => {
      const result = await renameLabelAction({ owner, from: label, to: parsed.data });
      if (result.ok) setEditing(false);
      setError(result.ok ? null : result.message);
    });
  };
  const remove = () =>
    start(async () => {
      const result = await deleteLabelAction({ owner, label });
      setError(result.ok ? null : result.message);
    });
  return (
    <HydrationGate>
      <div className="row wrap">
        {editing ? (
          <>
            <input type="text" aria-label={`${t("labels.newName")} ${label}`} value={name} onChange={(e) => setName(e.target.value)} className="input-inline" />
            <button type="button" className="button" onClick={rename} disabled={pending}>{t("common.save")}</button>
            <button type="button" className="button button-secondary" onClick={() => setEditing(false)}>{t("common.cancel")}</button>
          </>
        ) : (
          <button type="button" className="button button-secondary" onClick={() => setEditing(true)} aria-label={`${t("labels.rename")} ${label}`}>{t("labels.rename")}</button>
        )}
        <ConfirmButton
          label={t("labels.delete")}
          title={`${t("labels.deleteTitle")} ${label}`}
          text={t("labels.deleteText")}
          confirmLabel={t("labels.delete")}
          cancelLabel={t("common.cancel")}
          onConfirm={remove}
          disabled={pending}
        />
        {error && <span className="field-error" role="alert">{error}</span>}
      </div>
    </HydrationGate>
  );
}
