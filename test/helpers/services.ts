/**
 * Whether the test run demands its services (`PARLEY_TEST_REQUIRE_SERVICES=1`, which `.ci/run` exports): then a
 * suite that would skip for a missing Redis or Neo4j fails with the reason instead, so a slow or broken service
 * cannot drop suites from a green run unnoticed. Qdrant stays a skip (no server can be installed on these machines).
 */
export function servicesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.PARLEY_TEST_REQUIRE_SERVICES === '1';
}

/**
 * `reason` as a suite's skip reason, or, when the run demands its services, an error that says so (thrown where the
 * suite would have decided to skip, so the test file fails with it).
 */
export function missingService(reason: string, env: NodeJS.ProcessEnv = process.env): string {
  if (servicesRequired(env)) throw new Error(`PARLEY_TEST_REQUIRE_SERVICES=1 and a service the tests need is missing: ${reason}`);
  return reason;
}
