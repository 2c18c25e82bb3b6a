import { describe, expect, it } from 'vitest';
import { applyColumnMapping, generatedId, parseTable, previewDataset, readDataset } from '../../../src/formats/datasets.ts';

function read(text: string, file: string) {
  const r = readDataset(text, file);
  if (!r.ok) throw new Error(`${r.error.where}: ${r.error.message}`);
  return r.value;
}

describe('known layouts', () => {
  it('SimpleQA CSV: problem/answer, Python-dict metadata topic as category, generated ids', () => {
    const csv = `metadata,problem,answer\n"{'topic': 'Science and technology', 'answer_type': 'Person', 'urls': ['https://x']}",Who received the IEEE Frank Rosenblatt Award in 2010?,Michio Sugeno\n"{'topic': 'Geography', 'answer_type': 'Place'}","Which city, in 1900, hosted the Olympics?",Paris\n`;
    const r = read(csv, 'simple_qa_test_set.csv');
    expect(r.layout).toBe('simpleqa');
    expect(r.dataset.questions).toEqual([
      { id: 'q0001', question: 'Who received the IEEE Frank Rosenblatt Award in 2010?', answer: 'Michio Sugeno', category: 'Science and technology' },
      { id: 'q0002', question: 'Which city, in 1900, hosted the Olympics?', answer: 'Paris', category: 'Geography' },
    ]);
  });

  it('PopQA: possible_answers is a JSON-encoded string list', () => {
    const tsv = `id\tsubj\tquestion\tpossible_answers\n4222362\tGeorge Rankin\tWhat is George Rankin's occupation?\t"[""politician"", ""soldier""]"\n`;
    const r = read(tsv, 'popqa.tsv');
    expect(r.layout).toBe('popqa');
    expect(r.dataset.questions[0]).toEqual({ id: '4222362', question: "What is George Rankin's occupation?", answer: 'politician', aliases: ['soldier'] });
  });

  it("Humanity's Last Exam: text-only rows, image rows skipped and listed", () => {
    const rows = [
      { id: 'h1', question: 'What is 2+2?', image: '', answer: '4', answer_type: 'exactMatch', category: 'Math' },
      { id: 'h2', question: 'What is shown?', image: 'data:image/png;base64,AAA', answer: 'a cat', answer_type: 'exactMatch', category: 'Other' },
    ];
    const r = read(rows.map((x) => JSON.stringify(x)).join('\n'), 'hle.jsonl');
    expect(r.layout).toBe('hle');
    expect(r.dataset.questions).toEqual([{ id: 'h1', question: 'What is 2+2?', answer: '4', category: 'Math' }]);
    expect(r.skipped).toEqual([{ where: 'hle.jsonl line 2', reason: 'has image (text-only questions are used)' }]);
  });

  it('TriviaQA nested JSON and flattened CSV', () => {
    const nested = JSON.stringify([{ question: 'Which Lloyd Webber musical premiered in the US on 10th December 1993?', question_id: 'tc_33', answer: { value: 'Sunset Boulevard', aliases: ['Sunset Boulevard', 'Sunset Blvd'] } }]);
    const r1 = read(nested, 'trivia.json');
    expect(r1.layout).toBe('triviaqa');
    expect(r1.dataset.questions[0]).toEqual({ id: 'tc_33', question: 'Which Lloyd Webber musical premiered in the US on 10th December 1993?', answer: 'Sunset Boulevard', aliases: ['Sunset Blvd'] });
    const r2 = read('QuestionId,Question,Answer.Value,Answer.Aliases\ntc_1,Who?,Bob,"[""Bob"",""Robert""]"\n', 'trivia.csv');
    expect(r2.layout).toBe('triviaqa');
    expect(r2.dataset.questions[0]).toEqual({ id: 'tc_1', question: 'Who?', answer: 'Bob', aliases: ['Robert'] });
  });

  it('NQ-open: answer is a list', () => {
    const r = read('{"question": "where is the eiffel tower", "answer": ["Paris", "Paris, France"]}\n', 'nq.jsonl');
    expect(r.layout).toBe('nq-open');
    expect(r.dataset.questions[0]).toEqual({ id: 'q0001', question: 'where is the eiffel tower', answer: 'Paris', aliases: ['Paris, France'] });
  });

  it('generic layout with id/question/answer/aliases ("|"-separated or a list)', () => {
    const r = read('id,question,answer,aliases\na1,Capital of France?,Paris,Paris city|City of Light\n', 'mine.csv');
    expect(r.layout).toBe('generic');
    expect(r.dataset.questions[0]).toEqual({ id: 'a1', question: 'Capital of France?', answer: 'Paris', aliases: ['Paris city', 'City of Light'] });
    expect(r.dataset.name).toBe('mine');
  });
});

describe('ids, repeats and mappings', () => {
  it('generated ids follow the row number, skipped rows included', () => {
    const r = read('question,answer\nQ1,A1\n,A2\nQ3,A3\n', 'x.csv');
    expect(r.dataset.questions.map((q) => q.id)).toEqual(['q0001', 'q0003']);
    expect(r.skipped).toEqual([{ where: 'x.csv line 3', reason: 'empty question (column question)' }]);
    expect(generatedId(12)).toBe('q0012');
  });

  it('a repeated id keeps the first row', () => {
    const r = read('id,question,answer\n1,First?,a\n1,Second?,b\n', 'x.csv');
    expect(r.dataset.questions).toHaveLength(1);
    expect(r.dataset.questions[0].question).toBe('First?');
    expect(r.skipped[0]).toEqual({ where: 'x.csv line 3', reason: 'repeats id 1 (the first row with it is kept)' });
  });

  it('skipped rows are listed in file order, repeated ids among the others; a skipped row does not claim its id', () => {
    const r = read('id,question,answer\n1,,a\n1,First?,a\n2,Other?,\n1,Again?,b\n2,Second?,c\n', 'x.csv');
    expect(r.dataset.questions.map((q) => [q.id, q.question])).toEqual([['1', 'First?'], ['2', 'Second?']]);
    expect(r.skipped.map((s) => s.where)).toEqual(['x.csv line 2', 'x.csv line 4', 'x.csv line 5']);
    expect(r.skipped[2].reason).toBe('repeats id 1 (the first row with it is kept)');
  });

  it('an unknown layout asks for a mapping; applyColumnMapping reads it', () => {
    const csv = 'ident,frage,antwort,extra\nk1,Hauptstadt?,Berlin,z\n';
    const r = readDataset(csv, 'de.csv');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/map the columns.*question and answer/);
    const table = parseTable(csv, 'de.csv');
    if (!table.ok) throw new Error('parse');
    const m = applyColumnMapping(table.value, { ident: 'id', frage: 'question', antwort: 'answer', extra: 'ignore' }, 'de.csv');
    expect(m.ok && m.value.dataset.questions).toEqual([{ id: 'k1', question: 'Hauptstadt?', answer: 'Berlin' }]);
    const missing = applyColumnMapping(table.value, { frage: 'question' }, 'de.csv');
    expect(!missing.ok && missing.error.message).toMatch(/reference answer/);
  });

  it('preview gives columns, first rows and the suggested mapping', () => {
    const p = previewDataset('id,question,answer\n1,a?,b\n2,c?,d\n3,e?,f\n', 'p.csv', 2);
    expect(p.ok && p.value).toMatchObject({ format: 'csv', totalRows: 3, layout: 'generic', suggestedMapping: { id: 'id', question: 'question', answer: 'answer' } });
    expect(p.ok && p.value.rows).toHaveLength(2);
  });
});

describe('bad files say what and where', () => {
  it.each([
    ['id,question,answer\n1,ok?,yes\n2,"unterminated,no\n', 'bad.csv', 'bad.csv line 3', /Quoted field unterminated/],
    ['id,question,answer\n1,ok?,yes\n2,a,b,c\n', 'bad.csv', 'bad.csv line 3', /Too many fields/],
    ['{"question":"a","answer":"b"}\n{"question": oops}\n', 'bad.jsonl', 'bad.jsonl line 2', /Not valid JSON/],
    ['[1, 2]', 'bad.json', 'bad.json item 1', /must be an object/],
    ['{"question": "a"}', 'bad.json', 'bad.json', /Unrecognised layout/],
    ['[\n{"question": "a",\n"answer": }\n]', 'bad.json', 'bad.json line 3', /Not valid JSON/],
    ['', 'empty.csv', 'empty.csv line 1', /empty/],
    ['question,answer\n,\n', 'blank.csv', 'blank.csv', /no rows/],
    ['question,answer\n ,x\n', 'blank.csv', 'blank.csv', /No usable questions.*line 2.*empty question/],
    // A question that is JSON structure was asked as its JSON text, silently; an answer that is a record too.
    ['{"question":"ok?","answer":"a"}\n{"question":["What is", "2+2?"],"answer":"4"}\n', 'q.jsonl', 'q.jsonl line 2', /^the question \(field question\) is a JSON array, not text: \["What is","2\+2\?"\]\. Map the question to a text field\.$/],
    ['[{"id":"a","question":{"text":"Capital?"},"answer":"Paris"}]', 'q.json', 'q.json item 1', /^the question \(field question\) is a JSON object, not text: \{"text":"Capital\?"\}/],
    ['{"question":"Capital?","answer":{"text":"Paris"}}\n', 'a.jsonl', 'a.jsonl line 1', /^the answer \(field answer\) is a JSON object, not text/],
  ])('%j', (text, file, where, message) => {
    const r = readDataset(text, file);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.where).toBe(where);
      expect(r.error.message).toMatch(message);
      expect(r.error.kind).toBe('dataset');
    }
  });
});
