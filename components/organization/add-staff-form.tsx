"use client";

import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { z } from "zod";
import { ZNewStaffUser } from "@/lib/organizations/schemas";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { addStaffUserAction } from "@/app/(staff)/organization/actions";
import { roleName } from "@/lib/i18n/role-names";
import { HydratedForm } from "@/components/ui/hydrated-form";

type Values = z.input<typeof ZNewStaffUser>;

export function AddStaffForm({ locale }: { locale: Locale }) {
  const t = translatorFor(locale);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const { register, handleSubmit, reset, formState: { errors, isSubmitting } } = useForm<Values>({ resolver: zodResolver(ZNewStaffUser), defaultValues: { role: "operator" } });
  const onSubmit = handleSubmit(async (values) => {
    const result = await addStaffUserAction(values);
    setMessage({ ok: result.ok, text: result.message });
    if (result.ok) reset({ email: "", password: "", role: "operator" });
  });
  return (
    <HydratedForm className="stack" onSubmit={onSubmit} noValidate aria-labelledby="add-staff-title">
      <h3 id="add-staff-title">{t("org.addStaff")}</h3>
      <div className="grid-2">
        <div>
          <label htmlFor="staff-email">{t("login.email")}</label>
          <input id="staff-email" type="email" {...register("email")} aria-invalid={!!errors.email} />
          {errors.email && <p className="field-error">{errors.email.message}</p>}
        </div>
        <div>
          <label htmlFor="staff-password">{t("org.initialPassword")}</label>
          <input id="staff-password" type="password" autoComplete="new-password" {...register("password")} aria-invalid={!!errors.password} />
          {errors.password && <p className="field-error">{errors.password.message}</p>}
        </div>
        <div>
          <label htmlFor="staff-role">{t("api.role")}</label>
          <select id="staff-role" {...register("role")}>
            {["owner", "admin", "operator", "viewer"].map((r) => <option key={r} value={r}>{roleName(r, t)}</option>)}
          </select>
        </div>
      </div>
      <button type="submit" className="button" disabled={isSubmitting}>{t("org.add")}</button>
      {message && <p role="status" className={message.ok ? "muted" : "alert"}>{message.text}</p>}
    </HydratedForm>
  );
}
