import { mergeCatalogues } from "./catalogue";
import { appMessages } from "./app-messages";
import { processMessages } from "./process-messages";
import { processFormMessages } from "./process-form-messages";
import { administrationMessages } from "./administration-messages";
import { stampMessages } from "./stamp-messages";
import { registryPhotoMessages } from "./registry-photo-messages";
import { staffExperienceMessages } from "./staff-experience-messages";
import { identityReviewMessages } from "./identity-review-messages";
import { identityProviderMessages } from "./identity-provider-messages";
import { transactionPageMessages } from "./transaction-page-messages";
import { homeMessages } from "./home-messages";

/** The areas whose keys make the one table `t(key)` reads on staff pages and the transaction page. */
export const dashboardAreas = {
  appMessages,
  processMessages,
  processFormMessages,
  administrationMessages,
  stampMessages,
  registryPhotoMessages,
  staffExperienceMessages,
  identityReviewMessages,
  identityProviderMessages,
  transactionPageMessages,
  homeMessages,
};

export const messages = mergeCatalogues(dashboardAreas);

export type { Locale } from "./catalogue";
export type MessageKey = keyof (typeof messages)["es"];
