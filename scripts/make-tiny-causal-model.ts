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
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';
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

// TINY_CAUSAL_OUT: write elsewhere (the test that the committed files are this script's output).
const OUT = path.resolve(process.env.TINY_CAUSAL_OUT ?? path.join(import.meta.dirname, '../public/models/tiny-causal-lm'));

// --- ONNX protobuf: the subset of onnx.proto this model needs, as a protobufjs JSON descriptor.
const onnxSchema = {
  nested: {
    onnx: {
      nested: {
        ModelProto: { fields: { ir_version: { type: 'int64', id: 1 }, producer_name: { type: 'string', id: 2 }, producer_version: { type: 'string', id: 3 }, graph: { type: 'GraphProto', id: 7 }, opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 } } },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: { fields: { node: { rule: 'repeated', type: 'NodeProto', id: 1 }, name: { type: 'string', id: 2 }, initializer: { rule: 'repeated', type: 'TensorProto', id: 5 }, input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 }, output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 } } },
        NodeProto: { fields: { input: { rule: 'repeated', type: 'string', id: 1 }, output: { rule: 'repeated', type: 'string', id: 2 }, name: { type: 'string', id: 3 }, op_type: { type: 'string', id: 4 }, attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 } } },
        AttributeProto: { fields: { name: { type: 'string', id: 1 }, i: { type: 'int64', id: 3 }, ints: { rule: 'repeated', type: 'int64', id: 8 }, type: { type: 'int32', id: 20 } } },
        TensorProto: { fields: { dims: { rule: 'repeated', type: 'int64', id: 1 }, data_type: { type: 'int32', id: 2 }, name: { type: 'string', id: 8 }, raw_data: { type: 'bytes', id: 9 } } },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: { fields: { tensor_type: { type: 'TensorTypeProto', id: 1 } } },
        TensorTypeProto: { fields: { elem_type: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        Dimension: { fields: { dim_value: { type: 'int64', id: 1 }, dim_param: { type: 'string', id: 2 } } },
      },
    },
  },
};
const ModelProto = protobuf.Root.fromJSON(onnxSchema).lookupType('onnx.ModelProto');

const FLOAT = 1;
const UINT8 = 2;
const INT64 = 7;
const ATTR_INT = 2;
const ATTR_INTS = 7;

const tensorInfo = (name: string, elemType: number, dims: (string | number)[]) => ({
  name,
  type: { tensor_type: { elem_type: elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dim_param: d } : { dim_value: d })) } } },
});
const floatTensor = (name: string, dims: number[], values: ArrayLike<number>) => ({ name, dims, data_type: FLOAT, raw_data: new Uint8Array(Float32Array.from(values).buffer) });
const int64Tensor = (name: string, dims: number[], values: bigint[]) => ({ name, dims, data_type: INT64, raw_data: new Uint8Array(BigInt64Array.from(values).buffer) });
const node = (op_type: string, input: string[], output: string[], attribute: object[] = []) => ({ op_type, input, output, name: `${op_type}_${output[0]}`, attribute });

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
  const initializer: object[] = [
    floatTensor('token_topic', [V], topicOfToken),
    int64Tensor('axes_1_3', [2], [1n, 3n]),
    int64Tensor('axes_1', [1], [1n]),
    int64Tensor('vocab_size', [], [BigInt(V)]),
  ];
  const nodes: object[] = [];
  if (quantized) {
    // Steps + 128 as uint8 with scale LOGIT_STEP: dequantized, exactly the float table.
    initializer.push({ name: 'table_quantized', dims: [rows, V], data_type: UINT8, raw_data: Uint8Array.from(table, (s) => s + 128) });
    initializer.push(floatTensor('table_scale', [], [LOGIT_STEP]));
    initializer.push({ name: 'table_zero_point', dims: [], data_type: UINT8, raw_data: Uint8Array.of(128) });
    nodes.push(node('DequantizeLinear', ['table_quantized', 'table_scale', 'table_zero_point'], ['table']));
  } else {
    initializer.push(floatTensor('table', [rows, V], Array.from(table, (s) => s * LOGIT_STEP)));
  }
  nodes.push(
    node('Gather', ['token_topic', 'input_ids'], ['step_topics'], [{ name: 'axis', i: 0, type: ATTR_INT }]),
    node('Unsqueeze', ['step_topics', 'axes_1_3'], ['step_topics_4d']),
    node('Concat', ['past_key_values.0.key', 'step_topics_4d'], ['present.0.key'], [{ name: 'axis', i: 2, type: ATTR_INT }]),
    node('Concat', ['past_key_values.0.value', 'step_topics_4d'], ['present.0.value'], [{ name: 'axis', i: 2, type: ATTR_INT }]),
    node('ReduceMax', ['present.0.key'], ['topic_float'], [{ name: 'axes', ints: [1, 2, 3], type: ATTR_INTS }, { name: 'keepdims', i: 0, type: ATTR_INT }]),
    node('Cast', ['topic_float'], ['topic'], [{ name: 'to', i: INT64, type: ATTR_INT }]),
    node('Mul', ['topic', 'vocab_size'], ['row_base']),
    node('Unsqueeze', ['row_base', 'axes_1'], ['row_base_2d']),
    node('Add', ['row_base_2d', 'input_ids'], ['rows']),
    node('Gather', ['table', 'rows'], ['logits'], [{ name: 'axis', i: 0, type: ATTR_INT }]),
  );
  const cache = (name: string, seq: string) => tensorInfo(name, FLOAT, ['batch_size', 1, seq, 1]);
  const model = {
    ir_version: 8,
    producer_name: 'semece make-tiny-causal-model',
    producer_version: '1',
    opset_import: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny_causal_lm',
      node: nodes,
      initializer,
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
    },
  };
  const problem = ModelProto.verify(model);
  if (problem) throw new Error(`ONNX model does not fit the schema: ${problem}`);
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}

function tokenizerJson(tokens: string[]) {
  const special = Object.values(SPECIAL_TOKENS);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: special.map((content) => ({ id: tokens.indexOf(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'Lowercase' },
    // Words of the prompt are matched whole (lower-cased): a keyword is its own token, any other word <unk>.
    pre_tokenizer: { type: 'Whitespace' },
    post_processor: null,
    // Reply tokens carry their own spaces and newlines, so decoding only joins them.
    decoder: { type: 'Fuse' },
    model: { type: 'WordPiece', unk_token: SPECIAL_TOKENS.unk, continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(tokens.map((t, i) => [t, i])) },
  };
}

function main() {
  const tokens = buildVocabulary();
  const table = buildTable(tokens);
  const id = (t: string) => tokens.indexOf(t);
  mkdirSync(path.join(OUT, 'onnx'), { recursive: true });
  const write = (file: string, data: string | Uint8Array) => writeFileSync(path.join(OUT, file), data);
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  write('config.json', json({
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
  }));
  write('generation_config.json', json({ eos_token_id: id(SPECIAL_TOKENS.end), pad_token_id: id(SPECIAL_TOKENS.pad), bos_token_id: null }));
  write('tokenizer.json', `${JSON.stringify(tokenizerJson(tokens))}\n`);
  write('tokenizer_config.json', json({
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
  }));
  write('onnx/model.onnx', buildModel(tokens, table, false));
  write('onnx/model_quantized.onnx', buildModel(tokens, table, true));
  console.log(`tiny-causal-lm: ${tokens.length} tokens, ${TINY_TOPICS.length} topics, written to ${path.relative(process.cwd(), OUT)}`);
}

main();
