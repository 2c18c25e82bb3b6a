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
import path from 'node:path';
import { compactJson, modelFolder, prettyJson, writeModelFiles } from './model-folder.ts';
import { bertInputs, encodeModel, FLOAT, floatTensor, int64Tensor, intAttr, node, tensorInfo, weightTable } from './onnx-writer.ts';
import { BERT_SPECIAL_TOKENS, BERT_TOKENIZER_CONFIG, bertTokenizerJson } from './word-tokenizer.ts';

// TINY_EMBEDDER_OUT: write elsewhere (the test that the committed files are this script's output).
const OUT = modelFolder('tiny-embedder', 'TINY_EMBEDDER_OUT');
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
  const tokens: string[] = [...BERT_SPECIAL_TOKENS];
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

function buildModel(vectors: number[][], quantized: boolean): Uint8Array {
  const vocab = vectors.length;
  const flat = vectors.flat();
  // Symmetric-range uint8 per-tensor quantization, as dynamic quantization would store it.
  const scale = Math.max(...flat.map(Math.abs)) / 127;
  const words = weightTable('word_embeddings', [vocab, HIDDEN], quantized
    ? { uint8: Uint8Array.from(flat, (x) => Math.max(0, Math.min(255, Math.round(x / scale) + 128))), scale, zeroPoint: 128 }
    : { float: flat });
  return encodeModel({
    producer: 'make-tiny-embedding-model',
    name: 'tiny_embedder',
    initializer: [floatTensor('token_type_embeddings', [2, HIDDEN], new Array(2 * HIDDEN).fill(0)), int64Tensor('unsqueeze_axes', [1], [2n]), ...words.initializer],
    node: [
      ...words.nodes,
      node('Gather', ['word_embeddings', 'input_ids'], ['words'], [intAttr('axis', 0)]),
      node('Gather', ['token_type_embeddings', 'token_type_ids'], ['types'], [intAttr('axis', 0)]),
      node('Add', ['words', 'types'], ['embedded']),
      node('Cast', ['attention_mask'], ['mask_float'], [intAttr('to', FLOAT)]),
      node('Unsqueeze', ['mask_float', 'unsqueeze_axes'], ['mask_3d']),
      node('Mul', ['embedded', 'mask_3d'], ['last_hidden_state']),
    ],
    input: bertInputs(),
    output: [tensorInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', HIDDEN])],
  });
}

function main() {
  const { tokens, vectors } = buildVocabulary();
  writeModelFiles(OUT, {
    'config.json': prettyJson({ model_type: 'bert', architectures: ['BertModel'], hidden_size: HIDDEN, num_attention_heads: 1, num_hidden_layers: 0, intermediate_size: HIDDEN, vocab_size: tokens.length, max_position_embeddings: 512, type_vocab_size: 2, pad_token_id: 0 }),
    'tokenizer.json': compactJson(bertTokenizerJson(tokens)),
    'tokenizer_config.json': prettyJson(BERT_TOKENIZER_CONFIG),
    'onnx/model.onnx': buildModel(vectors, false),
    'onnx/model_quantized.onnx': buildModel(vectors, true),
  });
  console.log(`tiny-embedder: ${tokens.length} tokens, hidden ${HIDDEN}, written to ${path.relative(process.cwd(), OUT)}`);
}

main();
