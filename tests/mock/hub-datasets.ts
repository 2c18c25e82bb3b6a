/**
 * Small stand-ins for the catalogue's datasets, in each one's own columns and in the hub's file
 * layout (the Parquet conversion under refs/convert/parquet/{config}/{split}/), written with
 * hyparquet-writer. Rows are few and known, so tests can say exactly which questions a load
 * gives. HLE is gated (token HLE_TOKEN; HLE_NO_ACCESS is a token that never accepted).
 */
import { ByteWriter, ParquetWriter, parquetWriteBuffer, schemaFromColumnData } from 'hyparquet-writer';
import type { MockHubRepo } from './hub-server.ts';

export const HLE_TOKEN = 'hf_mocktokenwithaccess0123456789';
export const HLE_NO_ACCESS = 'hf_mocktokenwithoutaccess987654';
export const PARQUET = 'refs/convert/parquet';

type Columns = Parameters<typeof parquetWriteBuffer>[0]['columnData'];
export const parquet = (columnData: Columns) => new Uint8Array(parquetWriteBuffer({ columnData }));

/**
 * A few hundred bytes of Parquet whose footer says what `edit` makes it say (a file of millions of
 * repeated values compresses to this little): a reader that trusts the footer to size its work
 * meets the declared counts before decoding anything.
 */
export function parquetWithFooter(columnData: Columns, edit: (footer: ParquetWriter) => void): Uint8Array {
  const writer = new ByteWriter();
  const pq = new ParquetWriter({ writer, schema: schemaFromColumnData({ columnData }) });
  pq.write({ columnData });
  edit(pq);
  pq.finish();
  return new Uint8Array(writer.getBuffer());
}

/** Three rows of question and answer in a footer that declares `rows` (its one row group too). */
export function parquetDeclaringRows(rows: bigint): Uint8Array {
  const columns: Columns = [
    { name: 'question', data: ['Q one?', 'Q two?', 'Q three?'], type: 'STRING' },
    { name: 'answer', data: ['one', 'two', 'three'], type: 'STRING' },
  ];
  return parquetWithFooter(columns, (footer) => {
    footer.num_rows = rows;
    for (const group of footer.row_groups) group.num_rows = rows;
  });
}

const TOPICS = ['Science', 'Art', 'Geography'];

/** SimpleQA: 12 questions, topics 6 Science, 3 Art, 3 Geography, in the metadata string. */
export function simpleQaRows() {
  return Array.from({ length: 12 }, (_, i) => {
    const topic = i < 6 ? TOPICS[0] : i < 9 ? TOPICS[1] : TOPICS[2];
    return { problem: `SimpleQA question ${i + 1}?`, answer: `answer ${i + 1}`, metadata: `{'topic': '${topic}', 'answer_type': 'Other', 'urls': ['https://example.org/${i}']}` };
  });
}

export function catalogueRepos(): Record<string, MockHubRepo> {
  const sq = simpleQaRows();
  return {
    'basicv8vc/SimpleQA': {
      files: {
        [PARQUET]: {
          'default/test/0000.parquet': parquet([
            { name: 'metadata', data: sq.map((r) => r.metadata), type: 'STRING' },
            { name: 'problem', data: sq.map((r) => r.problem), type: 'STRING' },
            { name: 'answer', data: sq.map((r) => r.answer), type: 'STRING' },
          ]),
        },
      },
    },
    'akariasai/PopQA': {
      files: {
        [PARQUET]: {
          'default/test/0000.parquet': parquet([
            { name: 'id', data: [4222362n, 453842n], type: 'INT64' },
            { name: 'subj', data: ['George Rankin', 'John Mayne'], type: 'STRING' },
            { name: 'prop', data: ['occupation', 'occupation'], type: 'STRING' },
            { name: 'question', data: ["What is George Rankin's occupation?", "What is John Mayne's occupation?"], type: 'STRING' },
            { name: 'possible_answers', data: ['["politician", "political leader"]', '["journalist", "journo"]'], type: 'STRING' },
          ]),
        },
      },
    },
    'mandarjoshi/trivia_qa': {
      files: {
        [PARQUET]: {
          // Two shards, as a large split has: rows are read in file order.
          'rc.nocontext/validation/0000.parquet': parquet([
            { name: 'question', data: ['Which planet is the Red Planet?'], type: 'STRING' },
            { name: 'question_id', data: ['tc_1'], type: 'STRING' },
            { name: 'answer', data: [{ value: 'Mars', aliases: ['Mars', 'The Red Planet', 'Planet Mars'] }] },
          ]),
          'rc.nocontext/validation/0001.parquet': parquet([
            { name: 'question', data: ['Who painted the Mona Lisa?'], type: 'STRING' },
            { name: 'question_id', data: ['tc_2'], type: 'STRING' },
            { name: 'answer', data: [{ value: 'Leonardo da Vinci', aliases: ['Leonardo', 'Da Vinci'] }] },
          ]),
        },
      },
    },
    'google-research-datasets/nq_open': {
      files: {
        [PARQUET]: {
          'nq_open/validation/0000.parquet': parquet([
            { name: 'question', data: ['when was the eiffel tower built', 'who wrote hamlet'], type: 'STRING' },
            { name: 'answer', data: [['1887', '1889'], ['William Shakespeare']] },
          ]),
        },
      },
    },
    'cais/hle': {
      token: HLE_TOKEN,
      noAccessToken: HLE_NO_ACCESS,
      files: {
        [PARQUET]: {
          'default/test/0000.parquet': parquet([
            { name: 'id', data: ['hle-1', 'hle-2', 'hle-3'], type: 'STRING' },
            { name: 'question', data: ['What is the 10th prime?', 'Name the shape in the image.', 'Smallest perfect number?'], type: 'STRING' },
            { name: 'image', data: ['', 'data:image/png;base64,AAAA', ''], type: 'STRING' },
            { name: 'answer', data: ['29', 'triangle', '6'], type: 'STRING' },
            { name: 'answer_type', data: ['exactMatch', 'exactMatch', 'exactMatch'], type: 'STRING' },
            { name: 'category', data: ['Math', 'Math', 'Math'], type: 'STRING' },
          ]),
        },
      },
    },
  };
}
