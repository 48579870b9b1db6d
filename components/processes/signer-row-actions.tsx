"use client";

import { useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { modifyProcessAction } from "@/app/(staff)/processes/actions";
import { EditSignerDialog } from "./edit-signer-dialog";
import type { ModifiableSigner } from "./edit-signer-values";
import { useReportSignerChange } from "./signer-changes";

type Props = {
  processId: string;
  signer: ModifiableSigner;
  /** False for the only signer: a process cannot be left without signers. */
  removable: boolean;
  /** Removing this signer leaves only signers who signed, so the process concludes as signed. */
  concludes: boolean;
  locale: Locale;
};

/** Edit and remove for a signer who has not signed yet; the server checks role, state and organization again. */
export function SignerRowActions({ processId, signer, removable, concludes, locale }: Props) {
  const t = translatorFor(locale);
  const report = useReportSignerChange();
  const [pending, start] = useTransition();
  const label = `${signer.nat}:${signer.docId}`;
  const remove = () =>
    start(async () => {
      const result = await modifyProcessAction({ process_id: processId, signers: [{ nat: signer.nat, doc_id: signer.docId, action: "remove" }] });
      report(result.ok ? { ok: true, text: t("modify.removed").replace("{id}", label) } : { ok: false, text: result.message });
    });
  return (
    <div className="row wrap">
      <EditSignerDialog processId={processId} signer={signer} locale={locale} onDone={report} disabled={pending} />
      {removable && (
        <ConfirmButton
          label={t("modify.remove")}
          title={t("modify.removeTitle").replace("{id}", label)}
          text={concludes ? `${t("modify.removeText")} ${t("modify.removeConcludes")}` : t("modify.removeText")}
          confirmLabel={t("modify.removeConfirm")}
          cancelLabel={t("common.cancel")}
          onConfirm={remove}
          disabled={pending}
        />
      )}
    </div>
  );
}
