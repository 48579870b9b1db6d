"use client";

import { useRef, useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { removeStaffUserAction } from "@/app/(staff)/organization/actions";
import { HydrationGate } from "@/components/ui/hydrated-form";

type CreatedCredential = { id: string; clientname: string };

/**
 * Removes a staff member after a modal <dialog> that lists the API credentials they created: each is
 * revoked unless the owner marks it to keep, and kept ones come back with a new secret, shown once.
 */
export function RemoveStaffButton({ userId, email, removed, credentials, domain, locale }: { userId: string; email: string; removed: boolean; credentials: CreatedCredential[]; domain: string; locale: Locale }) {
  const t = translatorFor(locale);
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, start] = useTransition();
  const [keep, setKeep] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [secrets, setSecrets] = useState<{ clientname: string; secret: string }[]>([]);
  const title = `${t("org.removeTitle")} ${email}?`;
  // stays mounted once the row shows the person removed, so the new secrets remain on screen
  return (
    <HydrationGate>
      <>
        {!removed && (
          <button type="button" className="button button-danger" disabled={pending} onClick={() => dialog.current?.showModal()}>
            {t("org.remove")}
          </button>
        )}
        <dialog ref={dialog} className="dialog" aria-label={title}>
          <form method="dialog" className="stack">
            <h2>{title}</h2>
            <p>{t("org.removeText")}</p>
            {credentials.length > 0 && (
              <fieldset className="stack" data-testid="created-credentials">
                <legend>{t("org.removeCredentials")}</legend>
                {credentials.map((c) => (
                  <label key={c.id} className="row">
                    <input type="checkbox" checked={keep.includes(c.id)} onChange={(e) => setKeep(e.target.checked ? [...keep, c.id] : keep.filter((id) => id !== c.id))} aria-label={`${t("org.keepCredential")}: ${c.clientname}`} />
                    <code>{c.clientname}</code> · {t("org.keepCredential")}
                  </label>
                ))}
              </fieldset>
            )}
            <div className="row">
              <button type="submit" value="cancel" className="button button-secondary">{t("common.cancel")}</button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  dialog.current?.close();
                  start(async () => {
                    const result = await removeStaffUserAction({ userId, reassign: keep });
                    setError(result.ok ? null : result.message);
                    if (result.ok) setSecrets(result.data ?? []);
                  });
                }}
              >
                {t("org.remove")}
              </button>
            </div>
          </form>
        </dialog>
        {error && <span className="field-error" role="alert">{error}</span>}
        {secrets.length > 0 && (
          <div className="notice stack" role="status" data-testid="reassigned-secrets">
            <p>{t("org.reassignedSecrets")}</p>
            <p>username <code>{domain}</code></p>
            <ul>
              {secrets.map((s) => (
                <li key={s.clientname}>
                  <code>{s.clientname}</code>: <code className="secret" data-clientname={s.clientname}>{s.secret}</code>
                </li>
              ))}
            </ul>
          </div>
        )}
      </>
    </HydrationGate>
  );
}
