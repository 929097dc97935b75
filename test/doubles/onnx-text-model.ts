import { FLOAT, INT64, intAttribute, tensorValue, writeTestOnnxModel } from './onnx-graph.js';

/** The stand-in's WordPiece vocabulary (BERT's special tokens at BERT's ids are not needed here). */
export const TEST_TEXT_VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'hello', 'world', 'un', '##aff', '##able', 'the', 'cat', 'sat', '.', ',', '!', 'a', '##s'];

/** A `tokenizer.json` as Hugging Face writes it for BERT-family models (lower-casing WordPiece), over {@link TEST_TEXT_VOCAB}. */
export function testTokenizerJson(): string {
  const id = (t: string): number => TEST_TEXT_VOCAB.indexOf(t);
  const special = (t: string): object => ({ id: id(t), content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return JSON.stringify({
    version: '1.0', truncation: null, padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(TEST_TEXT_VOCAB.map((t, i) => [t, i])) },
  });
}

/** Row `id` of the stand-in's token table (width `dim`): what the model adds up. */
export function testTokenRow(id: number, dim: number): Float32Array {
  return Float32Array.from({ length: dim }, (_, k) => Math.sin((id + 1) * (k + 1) * 0.61) + (k % TEST_TEXT_VOCAB.length === id ? 2 : 0));
}

/**
 * Write a small ONNX model with a BERT encoder's interface (`input_ids`, `attention_mask`,
 * `token_type_ids`, int64 [B,T] → `last_hidden_state` [B,T,dim]): each token's state is its row of a
 * fixed table plus the sum of the unpadded rows of its text, so the first ([CLS]) state depends on
 * every token and not on padding. No pretrained weights can be installed here; it checks plumbing
 * (tokenizer, batching, pooling, install path), not accuracy. `quantised`: the states then go through
 * DynamicQuantizeLinear and back, as in the int8 exports (bge-small-en-v1.5-q): uint8 over the range of
 * the whole [B,T,dim] tensor, so a text's states depend on the other texts and the padding of its batch.
 */
export function buildTestTextModel(file: string, dim: number, quantised = false): void {
  const table = new Float32Array(TEST_TEXT_VOCAB.length * dim);
  TEST_TEXT_VOCAB.forEach((_, id) => table.set(testTokenRow(id, dim), id * dim));
  writeTestOnnxModel(file, {
    name: quantised ? 'token-table-plus-sum-int8' : 'token-table-plus-sum',
    node: [
      { opType: 'Gather', input: ['E', 'input_ids'], output: ['rows'] },
      { opType: 'Cast', input: ['attention_mask'], output: ['maskF'], attribute: [intAttribute('to', FLOAT)] },
      { opType: 'Unsqueeze', input: ['maskF', 'axis2'], output: ['mask3'] },
      { opType: 'Mul', input: ['rows', 'mask3'], output: ['masked'] },
      { opType: 'ReduceSum', input: ['masked', 'axis1'], output: ['sum'], attribute: [intAttribute('keepdims', 1)] },
      { opType: 'Cast', input: ['token_type_ids'], output: ['typeF'], attribute: [intAttribute('to', FLOAT)] },
      { opType: 'Unsqueeze', input: ['typeF', 'axis2'], output: ['type3'] },
      { opType: 'Add', input: ['masked', 'sum'], output: ['withSum'] },
      ...(quantised
        ? [
          { opType: 'Add', input: ['withSum', 'type3'], output: ['states'] },
          { opType: 'DynamicQuantizeLinear', input: ['states'], output: ['q', 'qScale', 'qZero'] },
          { opType: 'DequantizeLinear', input: ['q', 'qScale', 'qZero'], output: ['last_hidden_state'] },
        ]
        : [{ opType: 'Add', input: ['withSum', 'type3'], output: ['last_hidden_state'] }]),
    ],
    initializer: [
      { name: 'E', dataType: FLOAT, dims: [TEST_TEXT_VOCAB.length, dim], rawData: new Uint8Array(table.buffer) },
      { name: 'axis1', dataType: INT64, dims: [1], int64Data: [1] },
      { name: 'axis2', dataType: INT64, dims: [1], int64Data: [2] },
    ],
    input: ['input_ids', 'attention_mask', 'token_type_ids'].map((name) => tensorValue(name, INT64, ['B', 'T'])),
    output: [tensorValue('last_hidden_state', FLOAT, ['B', 'T', dim])],
  });
}
