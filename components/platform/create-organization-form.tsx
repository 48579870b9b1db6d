"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { ZCreateOrganization } from "@/lib/organizations/schemas";
import { createOrganizationAction, type ActionResult } from "@/app/(staff)/platform/actions";
import { HydratedForm } from "@/components/ui/hydrated-form";

type FormValues = z.input<typeof ZCreateOrganization>;

export function CreateOrganizationForm() {
  const [result, setResult] = useState<ActionResult | null>(null);
  const { register, handleSubmit, reset, setError, formState: { errors, isSubmitting } } = useForm<FormValues>({ resolver: zodResolver(ZCreateOrganization) });
  const onSubmit = handleSubmit(async (values) => {
    const outcome = await createOrganizationAction(values);
    setResult(outcome);
    if (outcome.ok) reset();
    else if (outcome.field) setError(outcome.field as keyof FormValues, { message: outcome.message });
  });
  return (
    <HydratedForm className="card stack" onSubmit={onSubmit} noValidate aria-labelledby="new-org-title">
      <h2 id="new-org-title">Nueva organización</h2>
      {result && <p className={result.ok ? "muted" : "alert"} role="status">{result.message}</p>}
      <div>
        <label htmlFor="domain">Dominio</label>
        <input id="domain" type="text" placeholder="empresa.pe" {...register("domain")} aria-invalid={!!errors.domain} />
        {errors.domain && <p className="field-error">{errors.domain.message}</p>}
      </div>
      <div>
        <label htmlFor="displayName">Nombre visible</label>
        <input id="displayName" type="text" {...register("displayName")} />
      </div>
      <div>
        <label htmlFor="ownerEmail">Correo del propietario</label>
        <input id="ownerEmail" type="email" {...register("ownerEmail")} aria-invalid={!!errors.ownerEmail} />
        {errors.ownerEmail && <p className="field-error">{errors.ownerEmail.message}</p>}
      </div>
      <div>
        <label htmlFor="ownerPassword">Contraseña inicial del propietario</label>
        <input id="ownerPassword" type="password" autoComplete="new-password" {...register("ownerPassword")} aria-invalid={!!errors.ownerPassword} />
        {errors.ownerPassword && <p className="field-error">{errors.ownerPassword.message}</p>}
      </div>
      <button className="button" type="submit" disabled={isSubmitting}>{isSubmitting ? "Creando…" : "Crear organización"}</button>
    </HydratedForm>
  );
}
