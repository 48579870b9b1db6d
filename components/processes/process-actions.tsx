"use client";

import { useState, useTransition } from "react";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import type { Locale } from "@/lib/i18n/messages";
import { notifyProcessAction, rejectProcessAction } from "@/app/(staff)/processes/actions";
import { HydrationGate } from "@/components/ui/hydrated-form";

type Outcome = { ok: boolean; message: string; links?: { link: string; nat_dni: string }[] };

/** Notify again and reject, each shown only when the role allows it; the server checks again. */
export function ProcessActions({ processId, canNotify, canReject, locale }: { processId: string; canNotify: boolean; canReject: boolean; locale: Locale }) {
  const t = translatorFor(locale);
  const [pending, start] = useTransition();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const notify = () =>
    start(async () => {
      const result = await notifyProcessAction(processId);
      const data = result.ok ? result.data : undefined;
      // shared mode answers one link for everyone; per-signer mode one per signer
      const links = Array.isArray(data) ? data : data && data !== "approvalPending" ? [{ link: data, nat_dni: t("detail.sharedLink") }] : undefined;
      setOutcome({ ok: result.ok, message: result.message, links });
    });
  const reject = () =>
    start(async () => {
      const result = await rejectProcessAction(processId);
      setOutcome({ ok: result.ok, message: result.message });
    });
  return (
    <HydrationGate>
      <div className="stack">
        <div className="row">
          {canNotify && (
            <button type="button" className="button" onClick={notify} disabled={pending}>
              {t("detail.notify")}
            </button>
          )}
          {canReject && (
            <ConfirmButton
              label={t("detail.reject")}
              title={t("detail.rejectTitle")}
              text={t("detail.rejectText")}
              confirmLabel={t("detail.rejectConfirm")}
              cancelLabel={t("common.cancel")}
              onConfirm={reject}
              disabled={pending}
            />
          )}
        </div>
        {outcome && (
          <div role="status" className={outcome.ok ? "notice" : "alert"}>
            <p>{outcome.message}</p>
            {outcome.links && (
              <ul className="link-list">
                {outcome.links.map((l) => (
                  <li key={l.link}><code>{l.nat_dni}</code> <a href={l.link}>{l.link}</a></li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </HydrationGate>
  );
}
