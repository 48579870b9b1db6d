"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { ZNewCredential } from "@/lib/credentials/schemas";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { createCredentialAction } from "@/app/(staff)/api-access/actions";
import { roleName } from "@/lib/i18n/role-names";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Values = z.input<typeof ZNewCredential>;

/** Creates a process-API credential; the generated secret is shown once and never again. */
export function CreateCredentialForm({ locale, domain, mayGrant }: { locale: Locale; domain: string; mayGrant: boolean }) {
  const t = translatorFor(locale);
  const [created, setCreated] = useState<{ clientname: string; secret: string } | null>(null);
  const [error, setErrorText] = useState<string | null>(null);
  const { register, handleSubmit, reset, setError, formState: { errors, isSubmitting } } = useForm<Values>({
    resolver: zodResolver(ZNewCredential),
    defaultValues: { role: "operator", grants: [] },
  });
  const onSubmit = handleSubmit(async (values) => {
    const result = await createCredentialAction(values);
    if (result.ok && result.data) {
      setCreated(result.data);
      setErrorText(null);
      reset({ clientname: "", role: "operator", grants: [] });
    } else if (!result.ok) {
      setErrorText(result.message);
      if (result.field === "clientname") setError("clientname", { message: result.message });
    }
  });
  return (
    <HydratedForm className="card stack" onSubmit={onSubmit} noValidate>
      <h2>{t("api.newCredential")}</h2>
      <div className="grid-2">
        <div>
          <label htmlFor="clientname">{t("api.clientname")}</label>
          <input id="clientname" type="email" placeholder={`integracion@${domain}`} {...register("clientname")} aria-invalid={!!errors.clientname} />
          {errors.clientname && <p className="field-error">{errors.clientname.message}</p>}
        </div>
        <div>
          <label htmlFor="role">{t("api.role")}</label>
          <select id="role" {...register("role")}>
            <option value="admin">{roleName("admin", t)}</option>
            <option value="operator">{roleName("operator", t)}</option>
            <option value="viewer">{roleName("viewer", t)}</option>
          </select>
        </div>
      </div>
      {mayGrant && (
        <label className="row">
          <input type="checkbox" value="identity:registry" {...register("grants")} />
          {t("api.grantRegistry")}
        </label>
      )}
      <button className="button" type="submit" disabled={isSubmitting}>{t("api.create")}</button>
      {error && !errors.clientname && <p className="alert" role="alert">{error}</p>}
      {created && (
        <div className="notice stack" role="status">
          <p>{t("api.secretOnce")}</p>
          <dl className="facts">
            <dt>username</dt><dd><code>{domain}</code></dd>
            <dt>clientname</dt><dd><code>{created.clientname}</code></dd>
            <dt>password</dt><dd><code className="secret" data-testid="new-secret">{created.secret}</code></dd>
          </dl>
        </div>
      )}
    </HydratedForm>
  );
}
