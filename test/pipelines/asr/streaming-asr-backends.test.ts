import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { describe, test } from 'node:test';
import { ParleyError } from '../../../graph/core/errors.js';
import { createStreamingAsr } from '../../../pipelines/asr/create-streaming-asr.js';
import { wordErrorRate } from '../../../pipelines/asr/wer.js';
import { fixtureSamples, loadAudioFixtures } from '../../../pipelines/audio/fixtures.js';
import { parseWav } from '../../../pipelines/audio/wav.js';
import { runInWorkerThreads } from '../../helpers/worker-threads-child.js';

const isModelMissing = (fix: RegExp) => (e: unknown): boolean =>
  e instanceof ParleyError && e.code === 'PARLEY_ERR_MODEL_MISSING' && fix.test(e.message);

describe('pocketsphinx backend', () => {
  test('streams partials that grow into a final close to the text', async () => {
    const asr = await createStreamingAsr({ kind: 'pocketsphinx', partialIntervalMs: 200 });
    try {
      const f = loadAudioFixtures().find((x) => x.file === 'festival-slt.wav');
      assert.ok(f);
      const u = f.utterances[1];
      assert.ok(u);
      // With the same 300 ms padding the pipeline gives the recogniser around the speech.
      const audio = fixtureSamples(f).subarray(Math.round((u.start_ms - 300) * 16), Math.round((u.end_ms + 300) * 16));
      const turn = asr.startTurn();
      const partials: string[] = [];
      for (let i = 0; i < audio.length; i += 1600) {
        const p = turn.accept(audio.subarray(i, i + 1600));
        if (p !== undefined) partials.push(p);
      }
      const final = await turn.finish();
      assert.ok(partials.length >= 2, `partials: ${JSON.stringify(partials)}`);
      assert.ok(wordErrorRate([{ reference: u.text, hypothesis: final.text }]) < 0.4, final.text);
      assert.ok(final.confidence > 0 && final.confidence <= 1);
      // An aborted turn frees its decoder for the next one.
      asr.startTurn().abort();
      assert.equal((await asr.startTurn().finish()).text, '');
    } finally {
      await asr.close();
    }
  });

  test('decoders made in several threads at once: nothing logged, no crash', async () => {
    // Each thread makes and frees decoders while others decode. sphinxbase's log is one FILE per
    // process that a per-decoder `-logfn` would fclose under the other threads (a race this run may or
    // may not hit); logging is switched off instead, so any log line on stderr means it came back.
    // A child process, so a native crash fails only this test.
    const asrUrl = new URL('../../../pipelines/asr/create-streaming-asr.js', import.meta.url).href;
    const body = `
      const { parentPort } = require('node:worker_threads');
      import(${JSON.stringify(asrUrl)}).then(async ({ createStreamingAsr }) => {
        const asr = await createStreamingAsr({ kind: 'pocketsphinx', maxIdleDecoders: 0 });
        const noise = new Float32Array(16000).map(() => Math.random() * 0.2 - 0.1);
        for (let i = 0; i < 2; i++) {
          const turns = [asr.startTurn(), asr.startTurn()];
          for (const t of turns) t.accept(noise);
          for (const t of turns) await t.finish();
        }
        await asr.close();
        parentPort.postMessage('done');
      });
    `;
    const { messages, stderr } = await runInWorkerThreads(body, 3);
    assert.deepEqual(messages, ['done', 'done', 'done']);
    assert.doesNotMatch(stderr, /INFO:|ERROR:/, 'pocketsphinx log lines reached stderr');
  });

  test('an unknown decoder option fails at start-up naming the variable', async () => {
    await assert.rejects(createStreamingAsr({ kind: 'pocketsphinx', options: { '-no_such_option': '1' } }),
      isModelMissing(/PARLEY_POCKETSPHINX_OPTIONS/));
  });

  test('a missing model fails at start-up naming the packages to install', async () => {
    await assert.rejects(createStreamingAsr({ kind: 'pocketsphinx', modelDir: '/nonexistent' }), isModelMissing(/pocketsphinx-en-us/));
  });
});

describe('sherpa-onnx backend', () => {
  test('without fetched model files it fails at start-up naming the models command', async () => {
    await assert.rejects(createStreamingAsr({ kind: 'sherpa-onnx', modelDir: os.tmpdir() }),
      isModelMissing(/npm run models -- fetch sherpa-zipformer-en/));
  });
});

describe('openai-compatible backend', () => {
  test('without credentials it fails at start-up naming the variables', async () => {
    const saved = process.env['OPENAI_API_KEY'];
    delete process.env['OPENAI_API_KEY'];
    try {
      await assert.rejects(createStreamingAsr({ kind: 'openai' }), isModelMissing(/OPENAI_API_KEY/));
    } finally {
      if (saved !== undefined) process.env['OPENAI_API_KEY'] = saved;
    }
  });

  test('sends each turn as a WAV to /audio/transcriptions (against a local test double server)', async () => {
    // Test double: an OpenAI-compatible transcription server that reports what it received.
    const received: { auth?: string; model?: string; samples: number; rate: number }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const riff = body.indexOf('RIFF');
        const wav = parseWav(body.subarray(riff));
        const model = /name="model"\r\n\r\n([^\r]+)/.exec(body.toString('latin1'))?.[1];
        received.push({ auth: req.headers.authorization, ...(model ? { model } : {}), samples: wav.samples.length, rate: wav.sampleRate });
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ text: `Heard ${wav.samples.length} samples.` }));
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const asr = await createStreamingAsr({ kind: 'openai', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'test-key', model: 'test-model' });
      assert.equal(asr.producesPartials, false);
      const turn = asr.startTurn();
      assert.equal(turn.accept(new Float32Array(8000).fill(0.1)), undefined);
      assert.equal(turn.accept(new Float32Array(8000).fill(-0.1)), undefined);
      const final = await turn.finish();
      assert.equal(final.text, 'Heard 16000 samples.');
      assert.deepEqual(received, [{ auth: 'Bearer test-key', model: 'test-model', samples: 16000, rate: 16000 }]);
    } finally {
      server.close();
    }
  });

  test('an upstream failure rejects the turn', async () => {
    const server = createServer((_req, res) => { res.statusCode = 500; res.end('{"error":{"message":"boom"}}'); });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    try {
      const asr = await createStreamingAsr({ kind: 'openai', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k', timeoutMs: 2000 });
      const turn = asr.startTurn();
      turn.accept(new Float32Array(1600));
      await assert.rejects(turn.finish());
    } finally {
      server.close();
    }
  });
});
