import type { FastifyInstance } from 'fastify';

/**
 * A named participant with a stored voiceprint, as an agent enrolled by speaking once has: what `agent=` on
 * `/v1/stream` and `/v1/twilio` asks of a call centre's agent, without the speech it takes to enrol one. Returns its id.
 */
export async function enrolledAgent(app: FastifyInstance, tenant: string, name: string, externalId?: string): Promise<string> {
  const { graph, voiceprints } = app.stores;
  const p = await graph.createParticipant(tenant, { name, ...(externalId ? { externalId } : {}) });
  await voiceprints.upsert(tenant, { participantId: p.id, modelId: 'test-model', vector: new Float32Array(8).fill(Math.SQRT1_2 / 2), updateCount: 1 });
  await graph.setVoiceprintCount(tenant, p.id, 1);
  return p.id;
}
