// One undici Agent (a connection pool per origin) per provider, with the provider's connect and
// first-byte timeouts. A reload keeps the agents of unchanged providers (their warm connections)
// and closes the others gracefully: requests in flight on them finish first.
import { Agent } from 'undici';
import type { ProviderConfig } from '../types.ts';

// Keyed by everything the agent is built from, so a request still running on an old config never
// gets (or replaces) the agent of the new one.
const agentKey = (p: ProviderConfig) => JSON.stringify([p.id, p.base_url, p.timeouts.connect_ms, p.timeouts.first_byte_ms]);

export class ProviderAgents {
  private readonly agents = new Map<string, Agent>();

  get(provider: ProviderConfig): Agent {
    const key = agentKey(provider);
    let agent = this.agents.get(key);
    if (agent === undefined) {
      agent = new Agent({
        connect: { timeout: provider.timeouts.connect_ms },
        headersTimeout: provider.timeouts.first_byte_ms,
        // Gaps between chunks are the relay's own idle timer: undici's would also count the time a
        // slow client keeps the body paused.
        bodyTimeout: 0,
      });
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Closes the agents no provider of the new config uses (after their requests finish). */
  retain(providers: readonly ProviderConfig[]): void {
    const wanted = new Set(providers.map(agentKey));
    for (const [key, agent] of this.agents) {
      if (wanted.has(key)) continue;
      this.agents.delete(key);
      void agent.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    const all = [...this.agents.values()].map((agent) => agent.destroy().catch(() => undefined));
    this.agents.clear();
    await Promise.all(all);
  }
}
