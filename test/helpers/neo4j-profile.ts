import type { ManagedTransaction } from 'neo4j-driver';

/** A profiled Neo4j plan (`PROFILE`), the parts the index tests read. */
export interface ProfiledPlan { operatorType: string; dbHits: number; children: ProfiledPlan[] }

/** The database hits of a profiled plan and all its children. */
export const hitsOf = (plan: ProfiledPlan): number => plan.dbHits + plan.children.reduce((sum, c) => sum + hitsOf(c), 0);

/** The operators of a profiled plan, root first. */
export const operatorsOf = (plan: ProfiledPlan): string[] => [plan.operatorType, ...plan.children.flatMap(operatorsOf)];

/** The profiled plans of every read `run` makes on a Neo4j `store` (each query run under `PROFILE`). */
export async function profiledReads(store: object, run: () => Promise<unknown>): Promise<ProfiledPlan[]> {
  const db = (store as unknown as { db: { read: (name: string, work: (tx: ManagedTransaction) => Promise<unknown>) => Promise<unknown> } }).db;
  const real = db.read.bind(db);
  const plans: ProfiledPlan[] = [];
  db.read = (name, work) => real(name, (tx) => work(new Proxy(tx, {
    get: (target, key) => (key === 'run'
      ? async (cypher: string, params: Record<string, unknown>) => {
        const result = await target.run(`PROFILE ${cypher}`, params);
        if (result.summary.profile) plans.push(result.summary.profile as unknown as ProfiledPlan);
        return result;
      }
      : Reflect.get(target, key)),
  })));
  try {
    await run();
  } finally {
    db.read = real;
  }
  return plans;
}
