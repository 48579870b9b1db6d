import type { ProcessEventRow } from "@/lib/processes/get-process-detail";
import type { MessageKey } from "@/lib/i18n/messages";
import { formatDateTime } from "./format-date-time";

export function ProcessTimeline({ events, t, locale }: { events: ProcessEventRow[]; t: (key: MessageKey) => string; locale: string }) {
  return (
    <section className="card">
      <h2>{t("detail.timeline")}</h2>
      <ol className="timeline" data-testid="timeline">
        {events.map((e) => (
          <li key={e.id} data-kind={e.kind}>
            <time dateTime={e.createdAt.toISOString()}>{formatDateTime(e.createdAt, locale)}</time>
            <strong>{e.kind}</strong>
            {e.actor && <span className="muted"> · {e.actor}</span>}
            {Object.keys(e.detail).length > 0 && <code className="event-detail">{JSON.stringify(e.detail)}</code>}
          </li>
        ))}
      </ol>
    </section>
  );
}
