import { Router, type Express } from 'express';
import { createRequire } from 'node:module';
import { routeTable, type RouteEntry } from '../http/route-table.js';
import type { Interface } from '../observability/metrics.js';
import { openApiDocument, type DocumentOptions } from './document.js';

const DESCRIPTIONS: Readonly<Record<Interface, DocumentOptions>> = {
  management: {
    title: 'Event-sourced CMS: management interface',
    description:
      'Writers and administrators: collections, schemas, resources, revisions, locales, delivery APIs and connections, keys, the audit log. ' +
      'Send `Authorization: Bearer <token>` (a management JWT or a management API key as `<public_key>:<secret_key>`). ' +
      'Every error is `{message, error_code, detail}`; every response carries `X-Request-Id`.',
    security: [{ management: [] }],
    securitySchemes: { management: { type: 'http', scheme: 'bearer', description: 'A management JWT, or a management API key as `<public_key>:<secret_key>`.' } },
  },
  delivery: {
    title: 'Event-sourced CMS: delivery interface',
    description:
      'Readers: `/{env}/{prefix}/{collection path}/` lists published resources (cursor pages), `.../{key}/` answers one. ' +
      'Which addresses exist depends on the collections connected to each delivery API and their `allowed_methods`. ' +
      'A public API needs no credentials; an auth-required one answers 401 with `WWW-Authenticate`.',
    security: [{}, { delivery: [] }],
    securitySchemes: {
      delivery: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`Simple <public_key>:<secret_key>`, `Secure <public_key>:<signature>` with `Date`, or `Bearer <token>`.' },
    },
  },
};

const require = createRequire(import.meta.url);
/** The reference page's script, served from the installed npm package: nothing comes from a CDN. */
const SCALAR_SCRIPT = require.resolve('@scalar/api-reference/browser/standalone.js');

/** The page allows its own origin only: no font, script or request goes anywhere else. */
const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The delivery page opens one API's own document with `?api=<env>/<prefix>` (its `_openapi`). */
const API_PARAM = /^[A-Za-z0-9_-]{1,100}\/[A-Za-z0-9_-]{1,100}$/;

const page = (title: string, url = '/openapi.json'): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body>
<script id="api-reference" data-url="${url}" data-configuration='{"withDefaultFonts":false,"hideDownloadButton":false}'></script>
<script src="/docs/standalone.js"></script>
</body>
</html>
`;

/** What `/openapi.json`, `/docs/` and `/docs/standalone.js` answer, for either interface's router. */
export type ReferencePages = {
  /** The OpenAPI document, generated once from the interface's route table. */
  document(): Record<string, unknown>;
  /** The reference page; the delivery page opens one API's own document with `?api=<env>/<prefix>`. */
  page(apiParam: unknown): string;
  /** Its Content-Security-Policy: its own origin only. */
  readonly csp: string;
  /** The page's script, from the installed package. */
  readonly script: string;
};

export function referencePages(api: Interface, routes: () => RouteEntry[]): ReferencePages {
  const options = DESCRIPTIONS[api];
  let document: Record<string, unknown> | null = null;
  return {
    document: () => (document ??= openApiDocument(routes(), options)),
    page: (apiParam) => page(options.title, api === 'delivery' && typeof apiParam === 'string' && API_PARAM.test(apiParam) ? `/${apiParam}/_openapi` : undefined),
    csp: PAGE_CSP,
    script: SCALAR_SCRIPT,
  };
}

/**
 * `/openapi.json` (generated once, from the app's own route table) and the reference page at
 * `/docs/` (also `/docs`), as routes of `router` (the interface's front: no router of their own
 * for every request to pass through).
 */
export function referenceRouter(api: Interface, router: Router = Router()): Router {
  let pages: ReferencePages | null = null;
  const pagesOf = (app: Express): ReferencePages => (pages ??= referencePages(api, () => routeTable(app)));
  router.get('/openapi.json', (req, res) => {
    res.json(pagesOf(req.app as Express).document());
  });
  router.get('/docs/', (req, res) => {
    res.set('Content-Security-Policy', PAGE_CSP).type('html').send(pagesOf(req.app as Express).page(req.query.api));
  });
  router.get('/docs/standalone.js', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=3600').sendFile(SCALAR_SCRIPT);
  });
  return router;
}
