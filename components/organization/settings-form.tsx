"use client";

import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ZOrganizationSettings, type OrganizationSettingsInput } from "@/lib/organizations/schemas";
import { nationalities } from "@/lib/identity-registry/check-national-id";
import type { Locale } from "@/lib/i18n/messages";
import { translatorFor } from "@/components/ui/use-translator";
import { updateSettingsAction } from "@/app/(staff)/organization/actions";
import { HydratedForm } from "@/components/ui/hydrated-form";

/** `privateCallbacks` is shown, never edited here: the platform administrator sets it. */
type Props = { locale: Locale; initial: OrganizationSettingsInput; privateCallbacks: boolean; editable: boolean; timeZones: string[] };

export function SettingsForm({ locale, initial, privateCallbacks, editable, timeZones }: Props) {
  const t = translatorFor(locale);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const { register, handleSubmit, control, formState: { errors, isSubmitting } } = useForm<OrganizationSettingsInput>({ resolver: zodResolver(ZOrganizationSettings), defaultValues: initial });
  const identityReview = useWatch({ control, name: "identityReviewRequired" });
  const onSubmit = handleSubmit(async (values) => {
    const result = await updateSettingsAction(values);
    setMessage({ ok: result.ok, text: result.message });
  });
  return (
    <HydratedForm className="card stack" onSubmit={onSubmit} noValidate>
      <h2>{t("org.settings")}</h2>
      <fieldset disabled={!editable} className="stack">
        <fieldset>
          <legend>{t("org.linkMode")}</legend>
          <label className="inline"><input type="radio" value="shared" {...register("linkMode")} /> {t("org.shared")}</label>
          <label className="inline"><input type="radio" value="per-signer" {...register("linkMode")} /> {t("org.perSigner")}</label>
        </fieldset>
        <label className="inline"><input type="checkbox" {...register("requireApproval")} /> {t("org.requireApproval")}</label>
        <fieldset>
          <legend>{t("org.nationalities")}</legend>
          <div className="row wrap">
            {nationalities.map((n) => <label key={n} className="inline"><input type="checkbox" value={n} {...register("enabledNationalities")} /> {t(`nat.${n}`)}</label>)}
          </div>
          {errors.enabledNationalities && <p className="field-error">{errors.enabledNationalities.message}</p>}
        </fieldset>
        <div>
          <label htmlFor="org-time-zone">{t("org.timeZone")}</label>
          <select id="org-time-zone" {...register("timeZone")}>
            {timeZones.map((zone) => <option key={zone} value={zone}>{zone}</option>)}
          </select>
          <p className="muted">{t("org.timeZoneHelp")}</p>
          {errors.timeZone && <p className="field-error">{errors.timeZone.message}</p>}
        </div>
        <p className={privateCallbacks ? "alert" : "muted"} data-testid="private-callbacks-state" data-allowed={String(privateCallbacks)}>
          {t(privateCallbacks ? "org.privateCallbacksOn" : "org.privateCallbacksOff")} {t("org.privateCallbacksPlatformOnly")}
        </p>
        <div className="stack-tight">
          <label className="inline"><input type="checkbox" {...register("identityReviewRequired")} /> {t("org.identityReview")}</label>
          {!identityReview && <p className="alert" role="alert" data-testid="identity-review-warning">{t("org.identityReviewOff")}</p>}
        </div>
        {editable && <button type="submit" className="button" disabled={isSubmitting}>{t("common.save")}</button>}
      </fieldset>
      {!editable && <p className="muted">{t("org.ownerOnly")}</p>}
      {message && <p role="status" className={message.ok ? "muted" : "alert"}>{message.text}</p>}
    </HydratedForm>
  );
}
