import type { Route } from './api-types.js';

interface Compiled {
  route: Route;
  segments: string[];
}

export interface RouteMatch {
  route: Route;
  path: Record<string, string>;
}

/** Matches a path against route patterns, segment by segment (a trailing slash is ignored). */
export class Router {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.pattern.split('/').filter(Boolean) }));
  }

  match(pathname: string): RouteMatch | undefined {
    const parts = pathname.split('/').filter(Boolean);
    for (const { route, segments } of this.compiled) {
      if (segments.length !== parts.length) continue;
      const path: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length; i++) {
        const seg = segments[i]!;
        const part = parts[i]!;
        if (seg.startsWith(':')) {
          let value: string;
          try {
            value = decodeURIComponent(part);
          } catch {
            ok = false;
            break;
          }
          path[seg.slice(1)] = value;
        } else if (seg !== part) {
          ok = false;
          break;
        }
      }
      if (ok) return { route, path };
    }
    return undefined;
  }
}
