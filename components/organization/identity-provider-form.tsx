"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ZIdentityProviderSettings, type IdentityProviderSettings, type IdentityProviderSettingsInput } from "@/lib/identity-assurance/eid/schemas";
import type { Locale, MessageKey } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { removeIdentityProviderAction, saveIdentityProviderAction } from "@/app/(staff)/organization/identity-provider-actions";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Props = { locale: Locale; editable: boolean; redirectUri: string; initial: Omit<IdentityProviderSettingsInput, "clientSecret"> | null };

const textFields = ["displayName", "issuer", "clientId", "scopes", "documentNumberClaim", "givenNameClaim", "familyNameClaim"] as const;
const blank = { displayName: "", issuer: "", clientId: "", scopes: "openid profile", documentNumberClaim: "document_number", givenNameClaim: "given_name", familyNameClaim: "family_name" };

/** The organization's OIDC identity provider for the eID sign challenge; the client secret is write-only. */
export function IdentityProviderForm({ locale, editable, redirectUri, initial }: Props) {
  const t = translatorFor(locale);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [configured, setConfigured] = useState(initial !== null);
  const form = useForm<IdentityProviderSettingsInput, unknown, IdentityProviderSettings>({
    resolver: zodResolver(ZIdentityProviderSettings),
    defaultValues: { ...(initial ?? blank), clientSecret: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    const result = await saveIdentityProviderAction(values);
    setMessage({ ok: result.ok, text: result.message });
    if (result.ok) {
      setConfigured(true);
      form.resetField("clientSecret", { defaultValue: "" });
    } else if (result.field) form.setError(result.field as keyof IdentityProviderSettingsInput, { message: result.message });
  });
  const remove = async () => {
    const result = await removeIdentityProviderAction();
    setMessage({ ok: result.ok, text: result.message });
    if (result.ok) setConfigured(false);
  };
  return (
    <HydratedForm className="card stack" onSubmit={onSubmit} noValidate data-testid="identity-provider-form">
      <h2>{t("eid.title")}</h2>
      <p className="muted">
        {t("eid.help")} <code data-testid="eid-redirect-uri">{redirectUri}</code>
      </p>
      {!configured && <p className="muted">{t("eid.none")}</p>}
      <fieldset disabled={!editable} className="stack">
        {textFields.map((name) => (
          <div key={name}>
            <label htmlFor={`eid-${name}`}>{t(`eid.${name}` as MessageKey)}</label>
            <input id={`eid-${name}`} type={name === "issuer" ? "url" : "text"} autoComplete="off" aria-invalid={Boolean(errors[name])} {...form.register(name)} />
            {errors[name] && <p className="field-error">{errors[name]?.message}</p>}
          </div>
        ))}
        <div>
          <label htmlFor="eid-clientSecret">{t("eid.clientSecret")}</label>
          <input id="eid-clientSecret" type="password" autoComplete="new-password" aria-invalid={Boolean(errors.clientSecret)} {...form.register("clientSecret")} />
          {configured && <p className="muted">{t("eid.clientSecretKept")}</p>}
          {errors.clientSecret && <p className="field-error">{errors.clientSecret.message}</p>}
        </div>
        {editable && (
          <div className="row wrap">
            <button type="submit" className="button" disabled={isSubmitting}>
              {t("eid.save")}
            </button>
            {configured && (
              <button type="button" className="button button-secondary" onClick={remove}>
                {t("eid.remove")}
              </button>
            )}
          </div>
        )}
      </fieldset>
      {!editable && <p className="muted">{t("eid.readOnly")}</p>}
      {message && (
        <p role="status" className={message.ok ? "muted" : "alert"}>
          {message.text}
        </p>
      )}
    </HydratedForm>
  );
}
