import type { AsrBackendConfig, AsrLog, StreamingAsr } from './streaming-asr.js';

/**
 * Load the configured backend; `log` receives its warnings that do not stop recognition.
 * @throws ParleyError `PARLEY_ERR_MODEL_MISSING` when its model files or credentials are missing; the
 * message names the fix.
 */
export async function createStreamingAsr(config: AsrBackendConfig, log?: AsrLog): Promise<StreamingAsr> {
  switch (config.kind) {
    case 'pocketsphinx': {
      const { PocketsphinxAsr } = await import('./pocketsphinx-asr.js');
      return PocketsphinxAsr.load(config, log);
    }
    case 'sherpa-onnx': {
      const { SherpaOnnxAsr } = await import('./sherpa-onnx-asr.js');
      return SherpaOnnxAsr.load(config);
    }
    case 'moonshine': {
      const { MoonshineAsr } = await import('./moonshine-asr.js');
      return MoonshineAsr.load(config);
    }
    case 'openai': {
      const { OpenAiAsr } = await import('./openai-asr.js');
      return OpenAiAsr.load(config);
    }
  }
}
