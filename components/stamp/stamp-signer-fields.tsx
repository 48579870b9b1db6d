"use client";

import type { ReactNode } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { translatorFor } from "@/components/ui/use-translator";

/** The form's values: the text fields of signPDF, as strings (ZSignPdfFields input). */
export type StampFormValues = {
  page: string;
  names: string;
  last_names: string;
  person_id_type: "DNI" | "CE" | "PAS";
  person_id: string;
  nationality: string;
  email: string;
  qr_type: "" | "auto" | "text";
  qr_text: string;
  stamp_size: "1" | "2";
  sign_type: "agente" | "digital" | "otp";
  sign_username: string;
  sign_password: string;
  sign_pin: string;
};

/** The signer data printed in the stamp (names, ID, nationality, e-mail), as the stamp form's fields. */
export function StampSignerFields({ register, errors, fieldError, t }: {
  register: UseFormRegister<StampFormValues>;
  errors: FieldErrors<StampFormValues>;
  fieldError: (name: keyof StampFormValues) => ReactNode;
  t: ReturnType<typeof translatorFor>;
}) {
  return (
    <section className="card stack">
      <h2>{t("stamp.signer")}</h2>
      <div className="grid-2">
        <div>
          <label htmlFor="names">{t("stamp.names")}</label>
          <input id="names" type="text" autoComplete="off" {...register("names")} aria-invalid={!!errors.names} />
          {fieldError("names")}
        </div>
        <div>
          <label htmlFor="last_names">{t("stamp.lastNames")}</label>
          <input id="last_names" type="text" autoComplete="off" {...register("last_names")} aria-invalid={!!errors.last_names} />
          {fieldError("last_names")}
        </div>
        <div>
          <label htmlFor="person_id_type">{t("stamp.idType")}</label>
          <select id="person_id_type" {...register("person_id_type")}>
            <option value="DNI">DNI</option>
            <option value="CE">CE</option>
            <option value="PAS">PAS</option>
          </select>
        </div>
        <div>
          <label htmlFor="person_id">{t("stamp.personId")}</label>
          <input id="person_id" type="text" autoComplete="off" {...register("person_id")} aria-invalid={!!errors.person_id} />
          {fieldError("person_id")}
        </div>
        <div>
          <label htmlFor="nationality">{t("stamp.nationality")}</label>
          <input id="nationality" type="text" maxLength={3} autoComplete="off" {...register("nationality")} aria-invalid={!!errors.nationality} />
          {fieldError("nationality")}
        </div>
        <div>
          <label htmlFor="email">{t("stamp.email")}</label>
          <input id="email" type="email" autoComplete="off" {...register("email")} aria-invalid={!!errors.email} />
          {fieldError("email")}
        </div>
      </div>
    </section>
  );
}
