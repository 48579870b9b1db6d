"use client";

import type { UseFormRegisterReturn } from "react-hook-form";
import type { MessageKey } from "@/lib/i18n/messages";

type Props = { idPrefix: string; type: UseFormRegisterReturn; value: UseFormRegisterReturn; error?: string; t: (key: MessageKey) => string };

/** Contact type and value of a signer; shared by the new-process form and the signer edit dialog. */
export function ContactFields({ idPrefix, type, value, error, t }: Props) {
  return (
    <>
      <div>
        <label htmlFor={`${idPrefix}-ctype`}>{t("new.contactType")}</label>
        <select id={`${idPrefix}-ctype`} {...type}>
          <option value="email">{t("new.email")}</option>
          <option value="whatsapp">WhatsApp</option>
          <option value="">{t("new.noContact")}</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-contact`}>{t("new.contact")}</label>
        <input id={`${idPrefix}-contact`} type="text" placeholder="persona@empresa.pe / +51987654321" {...value} aria-invalid={!!error} />
        {error && <p className="field-error">{error}</p>}
      </div>
    </>
  );
}
