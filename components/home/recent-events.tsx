import Link from "next/link";
import type { RecentProcessEvent } from "@/lib/staff-home/list-recent-process-events";
import type { MessageKey } from "@/lib/i18n/messages";
import { describeProcessEvent } from "@/lib/processes/describe-process-event";
import { formatDateTime } from "@/components/processes/format-date-time";

type Props = { events: RecentProcessEvent[]; auditLink: boolean; t: (key: MessageKey) => string; locale: string; timeZone: string };

/** The latest events of the organization's processes, in the process timeline's own sentences. */
export function RecentEvents({ events, auditLink, t, locale, timeZone }: Props) {
  return (
    <section className="card" aria-labelledby="recent-title">
      <h2 id="recent-title">{t("home.recent")}</h2>
      {events.length === 0 ? <p className="muted">{t("home.noEvents")}</p> : (
        <ol className="timeline" data-testid="recent-events">
          {events.map(({ event, description, signers }) => (
            <li key={event.id} data-kind={event.kind}>
              <time dateTime={event.createdAt.toISOString()}>{formatDateTime(event.createdAt, locale, timeZone)}</time>
              <span className="event-sentence">{describeProcessEvent(event, signers, t)} <Link href={`/processes/${encodeURIComponent(event.processId)}`}>{description || event.processId}</Link></span>
            </li>
          ))}
        </ol>
      )}
      {auditLink && <p><Link href="/audit">{t("home.auditLink")}</Link></p>}
    </section>
  );
}
