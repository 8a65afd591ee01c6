import { matchesIfNoneMatch } from '../http/if-none-match.ts';
import type { Deps, Handlers } from './handler.ts';

export function serviceHandlers({ store, catalogue, version }: Deps): Handlers {
  return {
    async health(_req, res) {
      const health = await store.health();
      res.status(health.status === 'ok' ? 200 : 503).json(health);
    },
    async serverInfo(_req, res) {
      res.json({ min_required_weave_python_version: '0.0.1', trace_server_version: version });
    },
    async routerModelsList(req, res) {
      // The catalogue is immutable while the server runs: body and ETag are computed once at start.
      res.set('ETag', catalogue.etag).set('Cache-Control', 'public, max-age=60, must-revalidate');
      if (matchesIfNoneMatch(req.headers['if-none-match'], catalogue.etag)) {
        res.status(304).end();
        return;
      }
      res.type('application/json').send(catalogue.body);
    },
  };
}
