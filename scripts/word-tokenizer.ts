/**
 * The tokenizer files the tiny-model scripts share: a word-level tokenizer.json (a WordPiece
 * model over a fixed vocabulary, as the library reads hub tokenizers), BERT's pieces of it for the
 * embedder and the NLI model, and BERT's tokenizer_config.json. Key order is kept as written,
 * since the files are compared byte for byte with the committed ones.
 */

/** BERT's special tokens, in the order they take the first ids. */
export const BERT_SPECIAL_TOKENS: readonly string[] = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

export interface WordTokenizerParts {
  /** Every token, in id order. */
  tokens: readonly string[];
  /** The tokens listed as added special tokens (each must be in `tokens`). */
  special: readonly string[];
  unk: string;
  normalizer: object;
  pre_tokenizer: object;
  post_processor: object | null;
  decoder: object;
}

/** tokenizer.json's content: no truncation or padding of its own, `##` continuations. */
export function wordTokenizerJson(parts: WordTokenizerParts) {
  const { tokens, special } = parts;
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: special.map((content) => ({ id: tokens.indexOf(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: parts.normalizer,
    pre_tokenizer: parts.pre_tokenizer,
    post_processor: parts.post_processor,
    decoder: parts.decoder,
    model: { type: 'WordPiece', unk_token: parts.unk, continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(tokens.map((t, i) => [t, i])) },
  };
}

/**
 * A BERT tokenizer over `tokens` (which must hold BERT_SPECIAL_TOKENS): lower-casing, BERT's
 * pre-tokenizer, [CLS] A [SEP] for one text and [CLS] A [SEP] B [SEP] for a pair, the second
 * text with token type 1 (how the NLI graph tells premise and hypothesis apart).
 */
export function bertTokenizerJson(tokens: readonly string[]) {
  const id = (t: string) => tokens.indexOf(t);
  return wordTokenizerJson({
    tokens,
    special: BERT_SPECIAL_TOKENS,
    unk: '[UNK]',
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
  });
}

/** tokenizer_config.json of a lower-casing BERT tokenizer with 512 positions. */
export const BERT_TOKENIZER_CONFIG = { tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]', clean_up_tokenization_spaces: true };
