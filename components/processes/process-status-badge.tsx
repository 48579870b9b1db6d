import type { ProcessStatus } from "@/db/schema";

export function ProcessStatusBadge({ status, label }: { status: ProcessStatus | "signed" | "pending" | "rejected"; label: string }) {
  return <span className={`badge badge-${status}`} data-status={status}>{label}</span>;
}
