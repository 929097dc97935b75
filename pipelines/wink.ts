import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** A wink-nlp instance with the English lite model and every default pipe. */
export type Wink = ReturnType<typeof winkNLP>;

let shared: Wink | null = null;

/**
 * The process's one wink-nlp instance (all default pipes), loaded at first use. It keeps no state
 * between documents, so the fact extractor, the entity extractor and affect attribution share it:
 * each load costs time and memory, and the model's loader grows a string at every load, so the
 * twentieth or so instance in one process failed with "Invalid string length".
 */
export function wink(): Wink {
  shared ??= winkNLP(model);
  return shared;
}
