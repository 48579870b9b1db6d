"use client";

import type { UseFormRegisterReturn } from "react-hook-form";
import type { MessageKey } from "@/lib/i18n/messages";

type Props = { idPrefix: string; size: UseFormRegisterReturn; orientation: UseFormRegisterReturn; t: (key: MessageKey) => string };

/** Size and orientation of a signer's stamp; the service places it on the appended page. */
export function StampStyleFields({ idPrefix, size, orientation, t }: Props) {
  return (
    <>
      <div>
        <label htmlFor={`${idPrefix}-size`}>{t("new.stampSize")}</label>
        <select id={`${idPrefix}-size`} {...size}>
          <option value="1">1</option>
          <option value="2">2</option>
        </select>
      </div>
      <div>
        <label htmlFor={`${idPrefix}-orientation`}>{t("new.orientation")}</label>
        <select id={`${idPrefix}-orientation`} {...orientation}>
          <option value="horizontal">{t("new.horizontal")}</option>
          <option value="vertical">{t("new.vertical")}</option>
        </select>
      </div>
    </>
  );
}
