import type { Express } from 'express';

/** One route an express app serves: an upper-case method and its path template (`/v1/:env/api/`). */
export type RouteEntry = { readonly method: string; readonly path: string };

type Layer = {
  readonly rawPath?: unknown;
  readonly route?: { readonly path: unknown; readonly methods: Readonly<Record<string, boolean>> };
  readonly handle?: { readonly stack?: readonly Layer[] };
};

const join = (prefix: string, path: string): string => `${prefix}${path}`.replace(/\/{2,}/g, '/') || '/';

function walk(stack: readonly Layer[], prefix: string, into: RouteEntry[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const path of paths) {
        if (typeof path !== 'string') continue;
        for (const [method, on] of Object.entries(layer.route.methods)) {
          if (on && method !== '_all') into.push({ method: method.toUpperCase(), path: join(prefix, path) });
          if (on && method === '_all') into.push({ method: 'ALL', path: join(prefix, path) });
        }
      }
    } else if (layer.handle?.stack) {
      // A router mounted under one path or several (`router.use(['/a', '/b'], inner)`).
      const mounts = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath];
      for (const mount of mounts) walk(layer.handle.stack, typeof mount === 'string' && mount !== '/' ? join(prefix, mount) : prefix, into);
    }
  }
}

/** Every route of an express 5 app, nested routers included, in registration order. */
export function routeTable(app: Express): RouteEntry[] {
  const router = (app as unknown as { router?: { stack: readonly Layer[] } }).router;
  const into: RouteEntry[] = [];
  if (router) walk(router.stack, '', into);
  return into;
}
