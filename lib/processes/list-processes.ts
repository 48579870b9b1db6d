import type { Db } from "@/db/client";
import { AppError } from "@/lib/errors";
import { documentLinkUrl } from "./document-link";
import { selfieLinkUrl } from "./selfie-link";
import { findProcessPage } from "./find-process-page";
import { formatProcess } from "./format-process";
import type { LinkSettings } from "./link-token";
import type { ListProcessesQuery } from "./schemas";

export type ProcessPage = {
  status: 200 | 206;
  body: { signatureProcesses: ReturnType<typeof formatProcess>[]; last_item: { processId: string; date: string } | null };
};

/** GET /api/signature_processes: 206 with a cursor while more remains; 404 when nothing matches. */
export async function listProcesses(input: { organizationId: string; query: ListProcessesQuery }, { db, settings }: { db: Db; settings: LinkSettings }): Promise<ProcessPage> {
  const { records, next } = await findProcessPage(input, db);
  if (records.length === 0) throw new AppError("NOT_FOUND");
  const now = Date.now();
  const signatureProcesses = records.map((r) => formatProcess(r, { dates: "iso", documentUrl: (d) => documentLinkUrl(d, settings, now), selfieUrl: (o) => selfieLinkUrl(o, settings, now) }));
  return { status: next ? 206 : 200, body: { signatureProcesses, last_item: next } };
}
