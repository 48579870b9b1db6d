"use client";

import { useState, useTransition } from "react";
import type { Locale } from "@/lib/i18n/messages";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { translatorFor } from "@/components/ui/use-translator";
import { revokeCredentialAction, setCredentialRoleAction } from "@/app/(staff)/api-access/actions";
import { roleName } from "@/lib/i18n/role-names";

/** Role, the identity:registry grant (shown only to who may grant it) and revocation of one credential. */
export function CredentialRowActions({ credentialId, clientname, role, grants, mayGrant, locale }: { credentialId: string; clientname: string; role: string; grants: string[]; mayGrant: boolean; locale: Locale }) {
  const t = translatorFor(locale);
  const [access, setAccess] = useState({ role, grants });
  const [pending, start] = useTransition();
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const run = (work: () => Promise<{ ok: boolean; message: string }>) =>
    start(async () => {
      const result = await work();
      setMessage({ ok: result.ok, text: result.message });
    });
  const save = (next: { role: string; grants: string[] }) => {
    setAccess(next);
    run(() => setCredentialRoleAction({ credentialId, ...next }));
  };
  return (
    <div className="row wrap">
      <select
        aria-label={`${t("api.role")} ${clientname}`}
        value={access.role}
        disabled={pending}
        className="input-inline"
        onChange={(e) => save({ ...access, role: e.target.value })}
      >
        <option value="admin">{roleName("admin", t)}</option>
        <option value="operator">{roleName("operator", t)}</option>
        <option value="viewer">{roleName("viewer", t)}</option>
      </select>
      {(mayGrant || access.grants.length > 0) && (
        <label className="row">
          <input
            type="checkbox"
            checked={access.grants.includes("identity:registry")}
            disabled={pending || !mayGrant}
            onChange={(e) => save({ ...access, grants: e.target.checked ? ["identity:registry"] : [] })}
          />
          {t("api.grantRegistry")}
        </label>
      )}
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
