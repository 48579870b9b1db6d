"use client";

import { useRef, useState } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { RegistryPhotoForm } from "./registry-photo-form";
import { HydrationGate } from "@/components/ui/hydrated-form";

/** "Replace" on a row: the upload form in a modal, with the row's nat + doc_id fixed. */
export function ReplaceRegistryPhotoButton({ locale, nat, docId }: { locale: Locale; nat: string; docId: string }) {
  const t = translatorFor(locale);
  const dialog = useRef<HTMLDialogElement>(null);
  // a new form each time the dialog opens: no file or message left from the previous attempt
  const [opened, setOpened] = useState(0);
  const title = `${t("registry.replaceTitle")} ${nat} ${docId}`;
  const open = () => {
    setOpened((n) => n + 1);
    dialog.current?.showModal();
  };
  return (
    <HydrationGate>
      <>
        <button type="button" className="button button-secondary" onClick={open}>{t("registry.replace")}</button>
        <dialog ref={dialog} className="dialog" aria-label={title}>
          <div className="stack">
            <h2>{title}</h2>
            <RegistryPhotoForm key={opened} locale={locale} nationalities={[nat]} person={{ nat, docId }} onSaved={() => dialog.current?.close()} />
            <form method="dialog">
              <button type="submit" className="link-button">{t("common.cancel")}</button>
            </form>
          </div>
        </dialog>
      </>
    </HydrationGate>
  );
}
