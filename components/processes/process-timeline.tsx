import type { ProcessEventRow } from "@/lib/processes/get-process-detail";
import type { SignerRow } from "@/lib/processes/load-process-records";
import type { MessageKey } from "@/lib/i18n/messages";
import { formatDateTime } from "./format-date-time";
import { describeProcessEvent } from "@/lib/processes/describe-process-event";

type Props = { events: ProcessEventRow[]; signers: SignerRow[]; t: (key: MessageKey) => string; locale: string; timeZone: string };

/** The process history as sentences a person reads: when, then who did what. */
export function ProcessTimeline({ events, signers, t, locale, timeZone }: Props) {
  return (
    <section className="card">
      <h2>{t("detail.timeline")}</h2>
      <ol className="timeline" data-testid="timeline">
        {events.map((e) => (
          <li key={e.id} data-kind={e.kind}>
            <time dateTime={e.createdAt.toISOString()}>{formatDateTime(e.createdAt, locale, timeZone)}</time>
            <span className="event-sentence">{describeProcessEvent(e, signers, t)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
