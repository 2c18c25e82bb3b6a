/**
 * Writes, with no network, a tiny MNLI-style sequence classifier that Transformers.js loads like a
 * hub NLI model (AutoTokenizer + AutoModelForSequenceClassification): public/models/tiny-nli/
 *   config.json (id2label 0 contradiction, 1 neutral, 2 entailment, as microsoft/deberta-large-mnli
 *   orders them), tokenizer.json, tokenizer_config.json,
 *   onnx/model.onnx (float32) and onnx/model_quantized.onnx (uint8 weights + DequantizeLinear, dtype q8).
 *
 * Its decisions are known, so tests can say which class each answer must land in. The input is a
 * pair, [CLS] premise [SEP] hypothesis [SEP], with token_type_ids 0 over the premise and 1 over the
 * hypothesis (the tokenizer's pair template, as BERT's). Every content word belongs to a synonym
 * group ("two" / "2" / "pair", "paris", "france" / "french" …, the tiny embedder's idea); function
 * words, punctuation and the letters an unknown word is spelled with carry no group. The graph
 * computes, per pair, which groups occur in the premise (A) and in the hypothesis (B), then
 *   missing = |B \ A|   (groups the hypothesis says that the premise does not)
 *   extra   = |A \ B|   (groups the premise says that the hypothesis does not)
 *   logits  = [contradiction 4·min(missing, extra) − 1,  neutral 0.5,  entailment 2 − 4·missing]
 * so the model says: entailment when every group of the hypothesis is in the premise; neutral when
 * the hypothesis only adds groups; contradiction when each side has a group the other lacks.
 * With the question in both texts (premise = question + answer A, hypothesis = question + answer B)
 * the question's groups cancel: "Paris" and "Paris, France" entail each other under "What is the
 * capital of France?", "Paris" and "Lyon" contradict, and "Paris" → "Paris in 1900" is neutral.
 *
 * A word outside the vocabulary is spelled with single characters, which carry no group, except
 * that a leading digit is its own number's token ("1970" reads as "1" + "##9" …, so group one):
 * a quirk of a test model, kept because the embedder's tokenizer has it too.
 *
 * Run: npx tsx scripts/make-tiny-nli-model.ts   (deterministic: same bytes every time)
 */
import path from 'node:path';
import { compactJson, modelFolder, prettyJson, writeModelFiles } from './model-folder.ts';
import { bertInputs, encodeModel, FLOAT, floatTensor, int64Tensor, intAttr, node, tensorInfo, weightTable } from './onnx-writer.ts';
import { BERT_SPECIAL_TOKENS, BERT_TOKENIZER_CONFIG, bertTokenizerJson } from './word-tokenizer.ts';

// TINY_NLI_OUT: write elsewhere (the test that the committed files are this script's output).
const OUT = modelFolder('tiny-nli', 'TINY_NLI_OUT');

/** Synonym groups: words of one group are one feature, so one entails the other. */
const GROUPS: string[][] = [
  ['zero', '0', 'none', 'nothing'], ['one', '1', 'single', 'once'], ['two', '2', 'pair', 'twice', 'both'],
  ['three', '3', 'thrice'], ['four', '4'], ['five', '5'], ['six', '6'], ['seven', '7'], ['eight', '8'], ['nine', '9'],
  ['ten', '10'], ['twelve', '12', 'dozen'], ['hundred', '100'], ['thousand', '1000'], ['million'], ['billion'],
  ['yes', 'true', 'correct', 'right'], ['no', 'false', 'wrong', 'incorrect'],
  ['big', 'large', 'huge', 'giant', 'enormous'], ['small', 'little', 'tiny', 'minor'],
  ['fast', 'quick', 'rapid', 'speedy'], ['slow', 'sluggish'], ['hot', 'warm'], ['cold', 'cool', 'chilly'],
  ['old', 'ancient', 'elderly'], ['new', 'modern', 'recent'],
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
  ['water', 'h2o'], ['fire', 'flame'], ['gold', 'au'], ['silver', 'ag'], ['iron', 'fe'], ['copper', 'cu'],
  ['oxygen'], ['hydrogen'], ['carbon'], ['nitrogen'], ['helium'],
  ['sun', 'solar'], ['moon', 'lunar'], ['mars'], ['venus'], ['jupiter'], ['saturn'], ['mercury'],
  ['shakespeare', 'william'], ['einstein', 'albert'], ['newton', 'isaac'], ['darwin', 'charles'], ['napoleon', 'bonaparte'],
  ['lincoln', 'abraham'], ['mozart', 'wolfgang', 'amadeus'], ['beethoven', 'ludwig'], ['picasso', 'pablo'], ['curie', 'marie'],
  ['doctor', 'physician'], ['teacher', 'instructor'], ['king', 'monarch'], ['queen'], ['president'], ['author', 'writer'],
  ['book', 'novel'], ['film', 'movie'], ['song', 'tune'], ['poem', 'verse'], ['painting', 'picture'],
  ['january'], ['february'], ['march'], ['april'], ['may'], ['june'], ['july'], ['august'], ['september'],
  ['october'], ['november'], ['december'], ['spring'], ['summer'], ['autumn', 'fall'], ['winter'],
  ['1776'], ['1789'], ['1900'], ['1914'], ['1945'], ['1969'], ['2000'], ['2001'], ['2020'],
  ['mountain', 'peak', 'summit'], ['river', 'stream'], ['ocean', 'sea'], ['lake', 'pond'], ['island', 'isle'], ['desert'],
  ['everest'], ['nile'], ['amazon'], ['pacific'], ['atlantic'], ['sahara'], ['alps'],
  ['kilometer', 'kilometers', 'km'], ['meter', 'meters', 'metre', 'metres'], ['mile', 'miles'], ['year', 'years'],
  ['day', 'days'], ['hour', 'hours'], ['degree', 'degrees'],
  ['piano'], ['guitar'], ['violin'], ['football', 'soccer'], ['tennis'], ['chess'],
  ['apple'], ['banana'], ['bread'], ['rice'], ['coffee'], ['tea'], ['wine'],
];

/** Words that carry no group: they never change a decision. */
const FUNCTION_WORDS = [
  'the', 'a', 'an', 'of', 'in', 'on', 'at', 'to', 'is', 'was', 'are', 'it', 'and', 'or', 'for', 'by', 'with', 'from',
  'as', 'that', 'this', 'be', 'i', 'think', 'probably', 'maybe', 'about', 'approximately', 'around', 'city', 'capital',
  'country', 'answer', 'know', 'do', 'not', 'can', 'which', 'what', 'who', 'where', 'when', 'how', 'many', 'much',
  'named', 'called', 'known', 'state', 'its', 'his', 'her', 'their', 'has', 'have', 'did', 'does', 'wrote', 'built',
];

const PUNCTUATION = [...'.,!?;:\'"()[]-/&%$#@*+='];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];

/** Labels as MNLI models name them, in microsoft/deberta-large-mnli's order. */
const LABELS = ['contradiction', 'neutral', 'entailment'] as const;

/** Tokens in id order, and the group of each (-1: none). */
function buildVocabulary(): { tokens: string[]; groupOf: number[] } {
  const tokens: string[] = [];
  const groupOf: number[] = [];
  const add = (token: string, group: number) => {
    if (tokens.includes(token)) throw new Error(`"${token}" is listed twice in the tiny NLI vocabulary`);
    tokens.push(token);
    groupOf.push(group);
  };
  for (const t of BERT_SPECIAL_TOKENS) add(t, -1);
  GROUPS.forEach((words, g) => words.forEach((w) => add(w, g)));
  for (const w of FUNCTION_WORDS) add(w, -1);
  for (const p of PUNCTUATION) add(p, -1);
  // Single characters and their continuations, so an unknown word still tokenizes (to no group).
  for (const c of LETTERS) if (!tokens.includes(c)) add(c, -1);
  for (const c of LETTERS) add(`##${c}`, -1);
  return { tokens, groupOf };
}

function buildModel(groupOf: number[], quantized: boolean): Uint8Array {
  const vocab = groupOf.length;
  const groups = GROUPS.length;
  // One row per token: a one-hot of its group (zeros for tokens of no group).
  const oneHot = new Array<number>(vocab * groups).fill(0);
  groupOf.forEach((g, t) => {
    if (g >= 0) oneHot[t * groups + g] = 1;
  });
  // 0/1 weights are exact in uint8 with scale 1 and zero point 0: q8 and fp32 decide alike.
  const table = weightTable('group_table', [vocab, groups], quantized ? { uint8: Uint8Array.from(oneHot), scale: 1, zeroPoint: 0 } : { float: oneHot });
  const nodes = [
    ...table.nodes,
    node('Gather', ['group_table', 'input_ids'], ['token_groups'], [intAttr('axis', 0)]), // [b, s, G]
    node('Cast', ['attention_mask'], ['mask'], [intAttr('to', FLOAT)]), // [b, s]
    node('Cast', ['token_type_ids'], ['segment'], [intAttr('to', FLOAT)]),
    node('Mul', ['mask', 'segment'], ['mask_b']), // hypothesis tokens
    node('Sub', ['mask', 'mask_b'], ['mask_a']), // premise tokens (and [CLS])
    node('Unsqueeze', ['mask_a', 'axis_2'], ['mask_a3']),
    node('Unsqueeze', ['mask_b', 'axis_2'], ['mask_b3']),
    node('Mul', ['token_groups', 'mask_a3'], ['groups_a_tokens']),
    node('Mul', ['token_groups', 'mask_b3'], ['groups_b_tokens']),
    node('ReduceSum', ['groups_a_tokens', 'axis_1'], ['count_a'], [intAttr('keepdims', 0)]), // [b, G]
    node('ReduceSum', ['groups_b_tokens', 'axis_1'], ['count_b'], [intAttr('keepdims', 0)]),
    node('Min', ['count_a', 'one'], ['has_a']), // a group present at all, however often
    node('Min', ['count_b', 'one'], ['has_b']),
    node('Sub', ['has_b', 'has_a'], ['b_minus_a']),
    node('Sub', ['has_a', 'has_b'], ['a_minus_b']),
    node('Relu', ['b_minus_a'], ['b_only']),
    node('Relu', ['a_minus_b'], ['a_only']),
    node('ReduceSum', ['b_only', 'axis_1'], ['missing'], [intAttr('keepdims', 1)]), // [b, 1]
    node('ReduceSum', ['a_only', 'axis_1'], ['extra'], [intAttr('keepdims', 1)]),
    // entailment = 2 − 4·missing
    node('Mul', ['four', 'missing'], ['four_missing']),
    node('Sub', ['two', 'four_missing'], ['logit_entailment']),
    // contradiction = 4·min(missing, extra) − 1
    node('Min', ['missing', 'extra'], ['both_differ']),
    node('Mul', ['four', 'both_differ'], ['four_both']),
    node('Sub', ['four_both', 'one'], ['logit_contradiction']),
    // neutral = 0.5, shaped [b, 1] like the others
    node('Mul', ['missing', 'zero'], ['zeros']),
    node('Add', ['zeros', 'half'], ['logit_neutral']),
    node('Concat', ['logit_contradiction', 'logit_neutral', 'logit_entailment'], ['logits'], [intAttr('axis', 1)]),
  ];
  return encodeModel({
    producer: 'make-tiny-nli-model',
    name: 'tiny_nli',
    initializer: [
      int64Tensor('axis_1', [1], [1n]),
      int64Tensor('axis_2', [1], [2n]),
      floatTensor('one', [], [1]),
      floatTensor('two', [], [2]),
      floatTensor('four', [], [4]),
      floatTensor('half', [], [0.5]),
      floatTensor('zero', [], [0]),
      ...table.initializer,
    ],
    node: nodes,
    input: bertInputs(),
    output: [tensorInfo('logits', FLOAT, ['batch_size', LABELS.length])],
  });
}

function main() {
  const { tokens, groupOf } = buildVocabulary();
  const id2label = Object.fromEntries(LABELS.map((l, i) => [String(i), l]));
  const label2id = Object.fromEntries(LABELS.map((l, i) => [l, i]));
  writeModelFiles(OUT, {
    'config.json': prettyJson({ model_type: 'bert', architectures: ['BertForSequenceClassification'], problem_type: 'single_label_classification', id2label, label2id, hidden_size: GROUPS.length, num_attention_heads: 1, num_hidden_layers: 0, intermediate_size: GROUPS.length, vocab_size: tokens.length, max_position_embeddings: 512, type_vocab_size: 2, pad_token_id: 0 }),
    // The pair template gives the hypothesis token type 1: that is how the graph tells the two texts apart.
    'tokenizer.json': compactJson(bertTokenizerJson(tokens)),
    'tokenizer_config.json': prettyJson(BERT_TOKENIZER_CONFIG),
    'onnx/model.onnx': buildModel(groupOf, false),
    'onnx/model_quantized.onnx': buildModel(groupOf, true),
  });
  console.log(`tiny-nli: ${tokens.length} tokens, ${GROUPS.length} groups, labels ${LABELS.join('/')}, written to ${path.relative(process.cwd(), OUT)}`);
}

main();
