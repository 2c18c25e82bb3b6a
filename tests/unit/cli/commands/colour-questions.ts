/** Three multiple-choice questions and the mock's scripted replies to each (run j gets reply j), shared by the `semece mc` tests. */
export const COLOUR_QUESTIONS = [
  { id: 'q1', question: 'Colour of alpha?', answer: 'A', options: ['red', 'green', 'blue', 'black'], category: 'easy' },
  { id: 'q2', question: 'Colour of beta?', answer: 'green', options: ['red', 'green', 'blue', 'black'], category: 'easy' },
  { id: 'q3', question: 'Colour of gamma?', answer: 'B', options: ['yes', 'no'], category: 'hard' },
];

export const COLOUR_REPLIES: Record<string, string[]> = {
  'Colour of alpha?': ['{"answer":"A","probability":90}', '{"answer":"A","probability":80}', '{"answer":"B","probability":60}'],
  'Colour of beta?': ['{"answer":"B","probability":70}', 'no idea', '{"answer":"B","probability":100}'],
  'Colour of gamma?': ['{"answer":"B","probability":50}', '{"answer":"A","probability":50}', '{"answer":"B","probability":75}'],
};
