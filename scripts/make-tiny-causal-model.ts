/**
 * Writes, with no network, a tiny causal language model that Transformers.js loads for text
 * generation exactly like a hub model (model_type llama): public/models/tiny-causal-lm/
 *   config.json, generation_config.json, tokenizer.json, tokenizer_config.json (ChatML chat_template),
 *   onnx/model.onnx (float32) and onnx/model_quantized.onnx (uint8 table + DequantizeLinear, dtype q8).
 *
 * The graph is a bigram table keyed on the question (scripts/tiny-causal-lm-table.ts):
 *   topic  = max over every token so far of token_topic[token]   (the keywords of the prompt)
 *   logits = table[topic · V + input_ids]                          ([batch, seq, V])
 * The "KV cache" is what makes this work through the library's generation loop, which after the
 * first step feeds only the newest token: past_key_values.0.key/value, of shape
 * [batch, 1, past, 1], carry each token's topic, and present.* = concat(past, this step's topics),
 * so the topic of the prompt follows the whole reply. No attention, no positions: the point is a
 * real ONNX file through the real loading, tokenizing, chat-template and sampling code, with an
 * answer distribution known exactly.
 *
 * Run: npx tsx scripts/make-tiny-causal-model.ts   (deterministic: same bytes every time)
 */
import path from 'node:path';
import { compactJson, modelFolder, prettyJson, writeModelFiles } from './model-folder.ts';
import { encodeModel, FLOAT, floatTensor, INT64, int64Tensor, intAttr, intsAttr, node, tensorInfo, weightTable } from './onnx-writer.ts';
import {
  ANSWER_LABEL,
  CHAT_TEMPLATE,
  CONFIDENCE_LABEL,
  FORBIDDEN_STEPS,
  LOGIT_STEP,
  NEWLINE,
  PERCENT,
  ROLE_WORDS,
  SPECIAL_TOKENS,
  TINY_TOPICS,
  type WeightedToken,
} from './tiny-causal-lm-table.ts';
import { wordTokenizerJson } from './word-tokenizer.ts';

// TINY_CAUSAL_OUT: write elsewhere (the test that the committed files are this script's output).
const OUT = modelFolder('tiny-causal-lm', 'TINY_CAUSAL_OUT');

/** The vocabulary: special tokens, the chat roles, the topics' keywords, then every token a reply uses. */
function buildVocabulary(): string[] {
  const tokens: string[] = [SPECIAL_TOKENS.pad, SPECIAL_TOKENS.unk, SPECIAL_TOKENS.start, SPECIAL_TOKENS.end, ...ROLE_WORDS];
  const add = (t: string) => {
    if (!tokens.includes(t)) tokens.push(t);
  };
  for (const topic of TINY_TOPICS.slice(1)) add(topic.keyword);
  for (const t of [ANSWER_LABEL, NEWLINE, CONFIDENCE_LABEL, PERCENT]) add(t);
  for (const topic of TINY_TOPICS) for (const w of [...topic.answers, ...topic.confidences]) add(w.token);
  return tokens;
}

/** The table in logit steps, [topics · V, V]: row topic·V + token is the next token's logits. */
function buildTable(tokens: string[]): Int8Array {
  const V = tokens.length;
  const id = (t: string) => {
    const i = tokens.indexOf(t);
    if (i < 0) throw new Error(`token ${JSON.stringify(t)} is not in the vocabulary`);
    return i;
  };
  const table = new Int8Array(TINY_TOPICS.length * V * V).fill(FORBIDDEN_STEPS);
  const eos = id(SPECIAL_TOKENS.end);
  const answerTokens = new Set(TINY_TOPICS.flatMap((t) => t.answers.map((a) => a.token)));
  const confidenceTokens = new Set(TINY_TOPICS.flatMap((t) => t.confidences.map((a) => a.token)));
  for (const t of answerTokens) if (confidenceTokens.has(t)) throw new Error(`${JSON.stringify(t)} is both an answer and a confidence`);
  TINY_TOPICS.forEach((topic, k) => {
    const row = (from: string) => (k * V + id(from)) * V;
    const certain = (from: number, to: number) => {
      table[(k * V + from) * V + to] = 0;
    };
    const weighted = (from: string, choices: readonly WeightedToken[]) => {
      for (const c of choices) table[row(from) + id(c.token)] = c.steps;
    };
    // Any state not on the reply's path ends the reply (so does the end itself, so a finished
    // row of a batch stays finished).
    for (let from = 0; from < V; from++) certain(from, eos);
    const clear = (from: string) => table.fill(FORBIDDEN_STEPS, row(from), row(from) + V);
    clear('assistant');
    certain(id('assistant'), id(ANSWER_LABEL));
    clear(ANSWER_LABEL);
    weighted(ANSWER_LABEL, topic.answers);
    for (const a of answerTokens) {
      clear(a);
      certain(id(a), id(NEWLINE));
    }
    clear(NEWLINE);
    certain(id(NEWLINE), id(CONFIDENCE_LABEL));
    clear(CONFIDENCE_LABEL);
    weighted(CONFIDENCE_LABEL, topic.confidences);
    for (const c of confidenceTokens) {
      clear(c);
      certain(id(c), id(PERCENT));
    }
  });
  return table;
}

function buildModel(tokens: string[], table: Int8Array, quantized: boolean): Uint8Array {
  const V = tokens.length;
  const rows = TINY_TOPICS.length * V;
  const topicOfToken = tokens.map((t) => Math.max(0, TINY_TOPICS.findIndex((topic, k) => k > 0 && topic.keyword === t)));
  // Steps + 128 as uint8 with scale LOGIT_STEP: dequantized, exactly the float table.
  const logitTable = weightTable('table', [rows, V], quantized
    ? { uint8: Uint8Array.from(table, (s) => s + 128), scale: LOGIT_STEP, zeroPoint: 128 }
    : { float: Array.from(table, (s) => s * LOGIT_STEP) });
  const nodes = [
    ...logitTable.nodes,
    node('Gather', ['token_topic', 'input_ids'], ['step_topics'], [intAttr('axis', 0)]),
    node('Unsqueeze', ['step_topics', 'axes_1_3'], ['step_topics_4d']),
    node('Concat', ['past_key_values.0.key', 'step_topics_4d'], ['present.0.key'], [intAttr('axis', 2)]),
    node('Concat', ['past_key_values.0.value', 'step_topics_4d'], ['present.0.value'], [intAttr('axis', 2)]),
    node('ReduceMax', ['present.0.key'], ['topic_float'], [intsAttr('axes', [1, 2, 3]), intAttr('keepdims', 0)]),
    node('Cast', ['topic_float'], ['topic'], [intAttr('to', INT64)]),
    node('Mul', ['topic', 'vocab_size'], ['row_base']),
    node('Unsqueeze', ['row_base', 'axes_1'], ['row_base_2d']),
    node('Add', ['row_base_2d', 'input_ids'], ['rows']),
    node('Gather', ['table', 'rows'], ['logits'], [intAttr('axis', 0)]),
  ];
  const cache = (name: string, seq: string) => tensorInfo(name, FLOAT, ['batch_size', 1, seq, 1]);
  return encodeModel({
    producer: 'make-tiny-causal-model',
    name: 'tiny_causal_lm',
    initializer: [
      floatTensor('token_topic', [V], topicOfToken),
      int64Tensor('axes_1_3', [2], [1n, 3n]),
      int64Tensor('axes_1', [1], [1n]),
      int64Tensor('vocab_size', [], [BigInt(V)]),
      ...logitTable.initializer,
    ],
    node: nodes,
    input: [
      tensorInfo('input_ids', INT64, ['batch_size', 'sequence_length']),
      cache('past_key_values.0.key', 'past_sequence_length'),
      cache('past_key_values.0.value', 'past_sequence_length'),
    ],
    output: [
      tensorInfo('logits', FLOAT, ['batch_size', 'sequence_length', V]),
      cache('present.0.key', 'total_sequence_length'),
      cache('present.0.value', 'total_sequence_length'),
    ],
  });
}

function tokenizerJson(tokens: string[]) {
  return wordTokenizerJson({
    tokens,
    special: Object.values(SPECIAL_TOKENS),
    unk: SPECIAL_TOKENS.unk,
    normalizer: { type: 'Lowercase' },
    // Words of the prompt are matched whole (lower-cased): a keyword is its own token, any other word <unk>.
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    // Reply tokens carry their own spaces and newlines, so decoding only joins them.
    decoder: { type: 'Fuse' },
  });
}

function main() {
  const tokens = buildVocabulary();
  const table = buildTable(tokens);
  const id = (t: string) => tokens.indexOf(t);
  writeModelFiles(OUT, {
    'config.json': prettyJson({
      model_type: 'llama',
      architectures: ['LlamaForCausalLM'],
      vocab_size: tokens.length,
      hidden_size: 1,
      head_dim: 1,
      num_hidden_layers: 1,
      num_attention_heads: 1,
      num_key_value_heads: 1,
      max_position_embeddings: 4096,
      bos_token_id: null,
      eos_token_id: id(SPECIAL_TOKENS.end),
      pad_token_id: id(SPECIAL_TOKENS.pad),
      tie_word_embeddings: false,
      use_cache: true,
    }),
    'generation_config.json': prettyJson({ eos_token_id: id(SPECIAL_TOKENS.end), pad_token_id: id(SPECIAL_TOKENS.pad), bos_token_id: null }),
    'tokenizer.json': compactJson(tokenizerJson(tokens)),
    'tokenizer_config.json': prettyJson({
      tokenizer_class: 'PreTrainedTokenizer',
      model_max_length: 4096,
      pad_token: SPECIAL_TOKENS.pad,
      unk_token: SPECIAL_TOKENS.unk,
      eos_token: SPECIAL_TOKENS.end,
      bos_token: null,
      add_bos_token: false,
      add_eos_token: false,
      clean_up_tokenization_spaces: false,
      chat_template: CHAT_TEMPLATE,
    }),
    'onnx/model.onnx': buildModel(tokens, table, false),
    'onnx/model_quantized.onnx': buildModel(tokens, table, true),
  });
  console.log(`tiny-causal-lm: ${tokens.length} tokens, ${TINY_TOPICS.length} topics, written to ${path.relative(process.cwd(), OUT)}`);
}

main();
