import { BUILD_INFO } from '../version.ts';
import { ANSWERED, handlers, type Deps } from './handler.ts';

export function serviceHandlers({ store, version, lifecycle, metrics, limiter }: Deps) {
  return handlers({
    // Liveness: the process answers. Nothing else is checked: restarting would not fix the rest.
    async live() {
      return { status: 'ok' as const };
    },
    async ready(_input, res) {
      const redis = limiter?.redisState();
      const shared = redis === undefined ? {} : { redis };
      if (lifecycle.phase === 'starting') {
        res.status(503);
        return {
          status: 'not_ready' as const,
          database: 'ok' as const,
          migrations: 'running' as const,
          draining: false,
          reason: 'starting: applying database migrations',
          ...shared,
        };
      }
      const ready = await store.ready({}, {});
      // A draining replica must leave the load balancer's pool before it stops.
      const answer =
        lifecycle.phase === 'draining'
          ? { ...ready, status: 'not_ready' as const, draining: true, reason: 'draining: the replica is shutting down' }
          : ready;
      res.status(answer.status === 'ready' ? 200 : 503);
      return { ...answer, ...shared };
    },
    async metrics(_input, res) {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
      return ANSWERED;
    },
    async health(_input, res) {
      const health = await store.health({}, {});
      // A draining replica must leave the load balancer's pool before it stops.
      if (lifecycle.phase === 'draining') {
        res.status(503);
        return { ...health, status: 'draining' };
      }
      // 200 whatever the database does: the process serves, and says how its database is.
      return health;
    },
    async serverInfo({ principal }) {
      return {
        min_required_weave_python_version: '0.0.1',
        trace_server_version: version,
        commit: BUILD_INFO.commit,
        key_scope: principal.scope,
        svc_user_id: principal.username,
        ...(principal.entityScopes ? { key_entity_scopes: principal.entityScopes } : {}),
      };
    },
  });
}
