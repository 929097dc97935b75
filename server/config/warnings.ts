/** Settings that are valid but look like mistakes, found after the config loaded. */
import type { Env } from './env-reader.js';
import type { ServerSettings, SessionSettings } from './serving.js';
import type { SpeakerSettings } from './speaker.js';
import { closest } from '../protocol/closest-name.js';

/**
 * `PARLEY_*` variables read by Parley's tools, benches and tests rather than by the server's config;
 * not typos. (Every name the server reads is the config's own: `loadConfigWithWarnings` records them.)
 */
const TOOL_ENV = new Set(['PARLEY_MAVEN_REPOSITORY', 'PARLEY_SHARED_DATA', 'PARLEY_TTS_CACHE', 'PARLEY_SPEAKER_RUNS']);
const TOOL_ENV_PREFIX = 'PARLEY_TEST_';

/**
 * One line per doubtful setting in `env`, given the names the config `read` and the `config` it built: a
 * `PARLEY_*` variable the config does not read (with the closest name it reads), and a `PARLEY_VOICEPRINTS`
 * list naming tenants that no API key (nor the MCP tenant) serves.
 */
export function doubtfulSettings(
  env: Env,
  read: ReadonlySet<string>,
  config: Pick<ServerSettings & SessionSettings & SpeakerSettings, 'apiKeys' | 'mcpTenant' | 'voiceprintConsent'>,
): string[] {
  const warnings: string[] = [];
  const known = [...read].filter((n) => n.startsWith('PARLEY_'));
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('PARLEY_') || read.has(name) || TOOL_ENV.has(name) || name.startsWith(TOOL_ENV_PREFIX)) continue;
    const suggestion = closest(name, known);
    warnings.push(`${name} is not a Parley setting and is ignored${suggestion ? `; did you mean ${suggestion}?` : ''}`);
  }
  if (Array.isArray(config.voiceprintConsent)) {
    const keyed = config.apiKeys.length > 0;
    const http = [...new Set(keyed ? config.apiKeys.map((k) => k.tenant) : ['default'])];
    const unserved = config.voiceprintConsent.filter((t) => !http.includes(t) && t !== config.mcpTenant);
    if (unserved.length > 0) {
      // Say which tenant comes from where: the MCP tenant is served by `npm run mcp`, not by any key.
      const sources = [keyed ? `API keys serve ${http.join(', ')}` : 'with no API keys the server serves default'];
      if (!http.includes(config.mcpTenant)) sources.push(`npm run mcp serves ${config.mcpTenant} (PARLEY_MCP_TENANT)`);
      warnings.push(
        `PARLEY_VOICEPRINTS is read as a list of tenants that consent to voiceprints, and names ${unserved.map((t) => JSON.stringify(t)).join(', ')}, ` +
          `which nothing here serves (${sources.join('; ')}); use all or none for every or no tenant`,
      );
    }
  }
  return warnings;
}
