"use client";

import { useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { revokeCredentialAction, setCredentialRoleAction } from "@/app/(staff)/api-access/actions";

export function CredentialRowActions({ credentialId, clientname, role, locale }: { credentialId: string; clientname: string; role: string; locale: Locale }) {
  const t = translatorFor(locale);
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const run = (work: () => Promise<{ ok: boolean; message: string }>) =>
    start(async () => {
      const result = await work();
      setMessage({ ok: result.ok, text: result.message });
    });
  return (
    <div className="row wrap">
      <select
        aria-label={`${t("api.role")} ${clientname}`}
        defaultValue={role}
        disabled={pending}
        className="input-inline"
        onChange={(e) => run(() => setCredentialRoleAction({ credentialId, role: e.target.value }))}
      >
        <option value="admin">admin</option>
        <option value="operator">operator</option>
        <option value="viewer">viewer</option>
      </select>
      <ConfirmButton
        label={t("api.revoke")}
        title={`${t("api.revokeTitle")} ${clientname}?`}
        text={t("api.revokeText")}
        confirmLabel={t("api.revoke")}
        cancelLabel={t("common.cancel")}
        onConfirm={() => run(() => revokeCredentialAction({ credentialId }))}
        disabled={pending}
      />
      {message && <span role="status" className={message.ok ? "muted" : "field-error"}>{message.text}</span>}
    </div>
  );
}
