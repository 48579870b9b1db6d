// Types of direct-api-routes.mjs, a plain module that scripts/serve.mjs loads without a build step.
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

export const DIRECT_API_ROUTES: readonly string[];
export function configHeadersByRoute(root: string, routes?: readonly string[]): Promise<Map<string, Map<string, string>>>;
export function directApiRoutes(options: {
  root: string;
  nextHandler: (req: IncomingMessage, res: ServerResponse) => unknown;
  headersByRoute: Map<string, Map<string, string>>;
  origin: string;
  port: number;
  onError?: (error: unknown) => void;
}): RequestListener;
