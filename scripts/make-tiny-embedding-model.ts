/**
 * Writes, with no network, a tiny BERT-style sentence-embedding model that Transformers.js loads
 * for 'feature-extraction' exactly like a hub model: public/models/tiny-embedder/
 *   config.json, tokenizer.json, tokenizer_config.json,
 *   onnx/model.onnx (float32) and onnx/model_quantized.onnx (uint8 weights + DequantizeLinear, dtype q8).
 *
 * The graph: last_hidden_state = (Gather(word_emb, input_ids) + Gather(type_emb, token_type_ids))
 * · attention_mask. No attention layers: the point is a real ONNX file through the real loading
 * and tokenizing code, with vectors whose geometry is known. Words are drawn from a seeded
 * generator in synonym groups ("two" / "2" / "pair", "big" / "large" / "huge" …), so a group's
 * words are close (cosine ≈ 0.95) and different groups are not; function words ("the", "of",
 * "city" …) get short vectors so they barely move a mean-pooled sentence. [CLS]/[SEP]/[PAD] are
 * zero vectors, so mean pooling averages the words only.
 *
 * Run: npx tsx scripts/make-tiny-embedding-model.ts   (deterministic: same bytes every time)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';

const OUT = path.resolve(import.meta.dirname, '../public/models/tiny-embedder');
const HIDDEN = 32;
const SEED = 20240607;

/** Synonym groups: words of one group get nearby vectors. */
const GROUPS: string[][] = [
  ['zero', '0', 'none', 'nothing'], ['one', '1', 'single', 'once'], ['two', '2', 'pair', 'twice', 'both'],
  ['three', '3', 'thrice'], ['four', '4'], ['five', '5'], ['six', '6'], ['seven', '7'], ['eight', '8'], ['nine', '9'],
  ['ten', '10'], ['twelve', '12', 'dozen'], ['hundred', '100'], ['thousand', '1000'], ['million'], ['billion'],
  ['yes', 'true', 'correct', 'right'], ['no', 'false', 'wrong', 'incorrect'],
  ['big', 'large', 'huge', 'giant', 'enormous'], ['small', 'little', 'tiny', 'minor'],
  ['fast', 'quick', 'rapid', 'speedy'], ['slow', 'sluggish'], ['hot', 'warm'], ['cold', 'cool', 'chilly'],
  ['happy', 'glad', 'joyful'], ['sad', 'unhappy'], ['old', 'ancient', 'elderly'], ['new', 'modern', 'recent'],
  ['paris'], ['london'], ['berlin'], ['rome'], ['madrid'], ['tokyo'], ['beijing'], ['moscow'], ['washington'],
  ['lyon'], ['marseille'], ['canberra'], ['sydney'], ['ottawa'], ['toronto'], ['lisbon'], ['vienna'], ['athens'],
  ['france', 'french'], ['england', 'english', 'britain', 'british', 'uk'], ['germany', 'german'], ['italy', 'italian'],
  ['spain', 'spanish'], ['japan', 'japanese'], ['china', 'chinese'], ['russia', 'russian'], ['usa', 'america', 'american', 'us'],
  ['australia', 'australian'], ['canada', 'canadian'], ['portugal', 'portuguese'], ['austria'], ['greece', 'greek'],
  ['red', 'crimson', 'scarlet'], ['blue', 'azure', 'navy'], ['green', 'emerald'], ['yellow', 'golden'], ['black', 'dark'],
  ['white', 'pale'], ['purple', 'violet'], ['orange'], ['pink'], ['brown'], ['gray', 'grey'],
  ['dog', 'puppy', 'hound'], ['cat', 'kitten', 'feline'], ['horse', 'pony'], ['bird', 'sparrow'], ['fish', 'salmon'],
  ['lion'], ['tiger'], ['elephant'], ['whale'], ['shark'], ['eagle'], ['snake', 'serpent'], ['mouse', 'rat'],
  ['car', 'automobile', 'vehicle'], ['boat', 'ship', 'vessel'], ['plane', 'aircraft', 'airplane'], ['train', 'railway'],
  ['water', 'h2o'], ['fire', 'flame'], ['earth', 'soil', 'ground'], ['air', 'wind'], ['gold', 'au'], ['silver', 'ag'],
  ['iron', 'fe'], ['copper', 'cu'], ['oxygen'], ['hydrogen'], ['carbon'], ['nitrogen'], ['helium'],
  ['sun', 'solar'], ['moon', 'lunar'], ['mars'], ['venus'], ['jupiter'], ['saturn'], ['mercury'],
  ['shakespeare', 'william'], ['einstein', 'albert'], ['newton', 'isaac'], ['darwin', 'charles'], ['napoleon', 'bonaparte'],
  ['lincoln', 'abraham'], ['mozart', 'wolfgang', 'amadeus'], ['beethoven', 'ludwig'], ['picasso', 'pablo'], ['curie', 'marie'],
  ['doctor', 'physician'], ['teacher', 'instructor'], ['king', 'monarch'], ['queen'], ['president'], ['author', 'writer'],
  ['book', 'novel'], ['film', 'movie'], ['song', 'tune'], ['poem', 'verse'], ['painting', 'picture'],
  ['january'], ['february'], ['march'], ['april'], ['may'], ['june'], ['july'], ['august'], ['september'],
  ['october'], ['november'], ['december'], ['monday'], ['friday'], ['sunday'], ['spring'], ['summer'], ['autumn', 'fall'], ['winter'],
  ['1776'], ['1789'], ['1914'], ['1945'], ['1969'], ['2000'], ['2001'], ['2020'],
  ['unknown', 'unsure', 'uncertain'], ['sorry', 'apologies'],
  ['mountain', 'peak', 'summit'], ['river', 'stream'], ['ocean', 'sea'], ['lake', 'pond'], ['island', 'isle'], ['desert'],
  ['everest'], ['nile'], ['amazon'], ['pacific'], ['atlantic'], ['sahara'], ['alps'],
  ['kilometer', 'kilometers', 'km'], ['meter', 'meters', 'metre', 'metres'], ['mile', 'miles'], ['kilogram', 'kg'], ['year', 'years'],
  ['day', 'days'], ['hour', 'hours'], ['minute', 'minutes'], ['degree', 'degrees'], ['percent', '%'],
  ['piano'], ['guitar'], ['violin'], ['football', 'soccer'], ['tennis'], ['chess'],
  ['apple'], ['banana'], ['bread'], ['rice'], ['coffee'], ['tea'], ['wine'],
];

/** Words that carry little meaning: short vectors, so they barely move a mean. */
const FUNCTION_WORDS = [
  'the', 'a', 'an', 'of', 'in', 'on', 'at', 'to', 'is', 'was', 'are', 'it', 'and', 'or', 'for', 'by', 'with', 'from',
  'as', 'that', 'this', 'be', 'i', 'think', 'probably', 'maybe', 'about', 'approximately', 'around', 'city', 'capital',
  'country', 'answer', 'know', 'do', 'not', "don't", 'can', 'cannot', 'which', 'what', 'who', 'where', 'when', 'how',
  'named', 'called', 'known', 'state', 'sir', 'mr', 'mrs', 'dr', 'saint', 'st', 'located', 'its', 'his', 'her', 'their',
];

const PUNCTUATION = [...'.,!?;:\'"()[]-/&%$#@*+='];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];

/** mulberry32, then Box–Muller: a tiny seeded normal generator. */
function seededNormal(seed: number) {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
}

function unit(v: number[]): number[] {
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

function buildVocabulary() {
  const normal = seededNormal(SEED);
  const randomVector = (scale: number) => unit(Array.from({ length: HIDDEN }, normal)).map((x) => x * scale);
  const tokens: string[] = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const vectors: number[][] = tokens.map(() => new Array(HIDDEN).fill(0));
  const add = (token: string, vector: number[]) => {
    if (tokens.includes(token)) return;
    tokens.push(token);
    vectors.push(vector);
  };
  for (const group of GROUPS) {
    const base = randomVector(1);
    for (const word of group) add(word, unit(base.map((x) => x + 0.055 * normal())));
  }
  for (const w of FUNCTION_WORDS) add(w, randomVector(0.08));
  for (const p of PUNCTUATION) add(p, randomVector(0.05));
  // Single characters and their continuations, so an unknown word still tokenizes to something
  // of its own instead of [UNK].
  for (const c of LETTERS) add(c, randomVector(0.6));
  for (const c of LETTERS) add(`##${c}`, randomVector(0.6));
  return { tokens, vectors };
}

// --- ONNX protobuf: the subset of onnx.proto this model needs, as a protobufjs JSON descriptor.
const onnxSchema = {
  nested: {
    onnx: {
      nested: {
        ModelProto: { fields: { ir_version: { type: 'int64', id: 1 }, producer_name: { type: 'string', id: 2 }, producer_version: { type: 'string', id: 3 }, graph: { type: 'GraphProto', id: 7 }, opset_import: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 } } },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: { fields: { node: { rule: 'repeated', type: 'NodeProto', id: 1 }, name: { type: 'string', id: 2 }, initializer: { rule: 'repeated', type: 'TensorProto', id: 5 }, input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 }, output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 } } },
        NodeProto: { fields: { input: { rule: 'repeated', type: 'string', id: 1 }, output: { rule: 'repeated', type: 'string', id: 2 }, name: { type: 'string', id: 3 }, op_type: { type: 'string', id: 4 }, attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 } } },
        AttributeProto: { fields: { name: { type: 'string', id: 1 }, i: { type: 'int64', id: 3 }, type: { type: 'int32', id: 20 } } },
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

const tensorInfo = (name: string, elemType: number, dims: (string | number)[]) => ({
  name,
  type: { tensor_type: { elem_type: elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dim_param: d } : { dim_value: d })) } } },
});
const floatTensor = (name: string, dims: number[], values: number[]) => ({ name, dims, data_type: FLOAT, raw_data: new Uint8Array(new Float32Array(values).buffer) });
const node = (op_type: string, input: string[], output: string[], attribute: object[] = []) => ({ op_type, input, output, name: `${op_type}_${output[0]}`, attribute });

function buildModel(vectors: number[][], quantized: boolean): Uint8Array {
  const vocab = vectors.length;
  const flat = vectors.flat();
  const initializer: object[] = [
    floatTensor('token_type_embeddings', [2, HIDDEN], new Array(2 * HIDDEN).fill(0)),
    { name: 'unsqueeze_axes', dims: [1], data_type: INT64, raw_data: new Uint8Array(new BigInt64Array([2n]).buffer) },
  ];
  const nodes: object[] = [];
  if (quantized) {
    // Symmetric-range uint8 per-tensor quantization, as dynamic quantization would store it.
    const maxAbs = Math.max(...flat.map(Math.abs));
    const scale = maxAbs / 127;
    const q = Uint8Array.from(flat, (x) => Math.max(0, Math.min(255, Math.round(x / scale) + 128)));
    initializer.push({ name: 'word_embeddings_quantized', dims: [vocab, HIDDEN], data_type: UINT8, raw_data: q });
    initializer.push(floatTensor('word_embeddings_scale', [], [scale]));
    initializer.push({ name: 'word_embeddings_zero_point', dims: [], data_type: UINT8, raw_data: Uint8Array.of(128) });
    nodes.push(node('DequantizeLinear', ['word_embeddings_quantized', 'word_embeddings_scale', 'word_embeddings_zero_point'], ['word_embeddings']));
  } else {
    initializer.push(floatTensor('word_embeddings', [vocab, HIDDEN], flat));
  }
  nodes.push(
    node('Gather', ['word_embeddings', 'input_ids'], ['words'], [{ name: 'axis', i: 0, type: ATTR_INT }]),
    node('Gather', ['token_type_embeddings', 'token_type_ids'], ['types'], [{ name: 'axis', i: 0, type: ATTR_INT }]),
    node('Add', ['words', 'types'], ['embedded']),
    node('Cast', ['attention_mask'], ['mask_float'], [{ name: 'to', i: FLOAT, type: ATTR_INT }]),
    node('Unsqueeze', ['mask_float', 'unsqueeze_axes'], ['mask_3d']),
    node('Mul', ['embedded', 'mask_3d'], ['last_hidden_state']),
  );
  const model = {
    ir_version: 8,
    producer_name: 'semece make-tiny-embedding-model',
    producer_version: '1',
    opset_import: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny_embedder',
      node: nodes,
      initializer,
      input: [tensorInfo('input_ids', INT64, ['batch_size', 'sequence_length']), tensorInfo('attention_mask', INT64, ['batch_size', 'sequence_length']), tensorInfo('token_type_ids', INT64, ['batch_size', 'sequence_length'])],
      output: [tensorInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', HIDDEN])],
    },
  };
  const problem = ModelProto.verify(model);
  if (problem) throw new Error(`ONNX model does not fit the schema: ${problem}`);
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}

function tokenizerJson(tokens: string[]) {
  const special = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
  const id = (t: string) => tokens.indexOf(t);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: special.map((content) => ({ id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(tokens.map((t, i) => [t, i])) },
  };
}

function main() {
  const { tokens, vectors } = buildVocabulary();
  mkdirSync(path.join(OUT, 'onnx'), { recursive: true });
  const write = (file: string, data: string | Uint8Array) => writeFileSync(path.join(OUT, file), data);
  write('config.json', `${JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: HIDDEN, num_attention_heads: 1, num_hidden_layers: 0, intermediate_size: HIDDEN, vocab_size: tokens.length, max_position_embeddings: 512, type_vocab_size: 2, pad_token_id: 0 }, null, 2)}\n`);
  write('tokenizer.json', `${JSON.stringify(tokenizerJson(tokens))}\n`);
  write('tokenizer_config.json', `${JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]', clean_up_tokenization_spaces: true }, null, 2)}\n`);
  write('onnx/model.onnx', buildModel(vectors, false));
  write('onnx/model_quantized.onnx', buildModel(vectors, true));
  console.log(`tiny-embedder: ${tokens.length} tokens, hidden ${HIDDEN}, written to ${path.relative(process.cwd(), OUT)}`);
}

main();
