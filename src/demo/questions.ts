/**
 * The built-in demo question set: open-ended factual questions written for this project (the
 * facts are public knowledge; the wording is ours), each with a reference answer and accepted
 * aliases. Every question also lists plausible answers with weights: the class distribution π
 * a simulated model samples from (scripts/make-demo.ts). The weights are invented to span easy
 * questions (one dominant class) and hard ones (close runners-up, sometimes a wrong favourite),
 * so the demo report shows both regimes. They describe no real model.
 */
import type { Dataset, Question } from '../model/rows';

/** One semantic class a simulated model may answer with. */
export interface DemoAnswer {
  /** The class label a judge would give. */
  label: string;
  /** Surface forms the simulated replies use (the same meaning, worded differently). */
  variants: string[];
  /** Relative weight; normalised per question into π. */
  weight: number;
  /** Whether this class matches the reference answer. */
  correct: boolean;
}

export interface DemoQuestion extends Question {
  plausible: DemoAnswer[];
}

type Option = [label: string, weight: number, variants?: string[]];

function q(
  id: number,
  category: string,
  question: string,
  answer: string,
  aliases: string[],
  options: Option[],
): DemoQuestion {
  const accepted = new Set([answer, ...aliases].map((s) => s.toLowerCase()));
  return {
    id: `demo-${String(id).padStart(2, '0')}`,
    category,
    question,
    answer,
    aliases,
    plausible: options.map(([label, weight, variants]) => ({
      label,
      weight,
      variants: variants ?? [label],
      correct: accepted.has(label.toLowerCase()),
    })),
  };
}

export const DEMO_QUESTIONS: DemoQuestion[] = [
  // Easy: one answer dominates.
  q(1, 'geography', 'Which city is the capital of Australia?', 'Canberra', [], [['Canberra', 90, ['Canberra', 'Canberra, ACT']], ['Sydney', 8], ['Melbourne', 2]]),
  q(2, 'science', 'Which element has the chemical symbol Fe?', 'Iron', [], [['Iron', 97, ['Iron', 'iron (Fe)']], ['Fluorine', 2], ['Francium', 1]]),
  q(3, 'literature', 'Who is the author of the novel "Pride and Prejudice"?', 'Jane Austen', ['Austen'], [['Jane Austen', 98, ['Jane Austen', 'Austen']], ['Charlotte Brontë', 2]]),
  q(4, 'mathematics', 'How many sides does a hexagon have?', '6', ['six'], [['6', 99, ['6', 'six', 'Six sides']], ['8', 1]]),
  q(5, 'science', 'Which planet orbits closest to the Sun?', 'Mercury', [], [['Mercury', 97], ['Venus', 3]]),
  q(6, 'history', 'In what year did the Berlin Wall fall?', '1989', [], [['1989', 94, ['1989', 'In 1989']], ['1990', 5], ['1991', 1]]),
  q(7, 'geography', 'What is the largest ocean on Earth?', 'Pacific Ocean', ['Pacific', 'the Pacific'], [['Pacific Ocean', 98, ['The Pacific Ocean', 'Pacific']], ['Atlantic Ocean', 2, ['Atlantic']]]),
  q(8, 'science', 'Which gas do plants absorb from the air to carry out photosynthesis?', 'Carbon dioxide', ['CO2'], [['Carbon dioxide', 92, ['Carbon dioxide', 'CO2', 'CO₂']], ['Oxygen', 6], ['Nitrogen', 2]]),
  q(9, 'arts', 'Which artist painted the ceiling of the Sistine Chapel?', 'Michelangelo', ['Michelangelo Buonarroti'], [['Michelangelo', 93, ['Michelangelo', 'Michelangelo Buonarroti']], ['Raphael', 5], ['Leonardo da Vinci', 2]]),
  q(10, 'science', 'What is the chemical formula of common table salt?', 'NaCl', ['sodium chloride'], [['NaCl', 96, ['NaCl', 'NaCl (sodium chloride)']], ['KCl', 3], ['NaCl2', 1]]),
  q(11, 'geography', 'In which country is the city of Marrakesh?', 'Morocco', [], [['Morocco', 97], ['Algeria', 2], ['Tunisia', 1]]),
  q(12, 'science', 'At sea level, at what temperature in degrees Celsius does pure water boil?', '100', ['100 °C'], [['100', 99, ['100 °C', '100', '100 degrees']], ['212', 1]]),
  q(13, 'science', 'Who formulated the general theory of relativity?', 'Albert Einstein', ['Einstein'], [['Albert Einstein', 98, ['Albert Einstein', 'Einstein']], ['Isaac Newton', 2, ['Newton']]]),
  q(14, 'geography', 'Which is the longest river in South America?', 'Amazon', ['Amazon River'], [['Amazon', 93, ['The Amazon', 'Amazon River']], ['Paraná', 5], ['Orinoco', 2]]),
  q(15, 'science', 'How many bones does a typical adult human skeleton have?', '206', [], [['206', 85], ['208', 7], ['212', 5], ['205', 3]]),
  q(16, 'economics', 'What is the currency of Japan?', 'Yen', ['Japanese yen'], [['Yen', 99, ['Yen', 'Japanese yen', 'JPY']], ['Won', 1]]),
  q(17, 'history', 'Who was the first person to set foot on the Moon?', 'Neil Armstrong', ['Armstrong'], [['Neil Armstrong', 97, ['Neil Armstrong', 'Armstrong']], ['Buzz Aldrin', 3]]),
  q(18, 'literature', 'Who wrote the play "Waiting for Godot"?', 'Samuel Beckett', ['Beckett'], [['Samuel Beckett', 88, ['Samuel Beckett', 'Beckett']], ['Eugène Ionesco', 8], ['Jean-Paul Sartre', 4]]),
  q(19, 'science', 'What is the SI unit of electrical resistance?', 'Ohm', ['ohms', 'Ω'], [['Ohm', 95, ['Ohm', 'the ohm (Ω)']], ['Volt', 3], ['Siemens', 2]]),
  q(20, 'science', 'Which is the hardest naturally occurring mineral?', 'Diamond', [], [['Diamond', 94], ['Corundum', 4], ['Wurtzite boron nitride', 2]]),

  // Medium: a clear favourite with real competition.
  q(21, 'geography', 'Which city is the capital of Canada?', 'Ottawa', [], [['Ottawa', 80], ['Toronto', 15], ['Montreal', 5]]),
  q(22, 'history', 'In which year was the Eiffel Tower completed?', '1889', [], [['1889', 72], ['1887', 18], ['1900', 6], ['1890', 4]]),
  q(23, 'science', 'Which chemical element has atomic number 74?', 'Tungsten', ['Wolfram', 'W'], [['Tungsten', 70, ['Tungsten', 'Tungsten (W)', 'Wolfram']], ['Rhenium', 14], ['Tantalum', 12], ['Osmium', 4]]),
  q(24, 'mathematics', 'What is the smallest prime number greater than 100?', '101', [], [['101', 88], ['103', 9], ['107', 3]]),
  q(25, 'arts', 'Who composed the opera "The Magic Flute"?', 'Wolfgang Amadeus Mozart', ['Mozart'], [['Wolfgang Amadeus Mozart', 92, ['Mozart', 'Wolfgang Amadeus Mozart', 'W. A. Mozart']], ['Joseph Haydn', 5], ['Ludwig van Beethoven', 3]]),
  q(26, 'science', 'Around which planet does the moon Titan orbit?', 'Saturn', [], [['Saturn', 90], ['Jupiter', 8], ['Uranus', 2]]),
  q(27, 'geography', 'Which city is the capital of New Zealand?', 'Wellington', [], [['Wellington', 78], ['Auckland', 20], ['Christchurch', 2]]),
  q(28, 'literature', 'Who wrote "One Hundred Years of Solitude"?', 'Gabriel García Márquez', ['Gabriel Garcia Marquez', 'García Márquez'], [['Gabriel García Márquez', 90, ['Gabriel García Márquez', 'Gabriel Garcia Marquez', 'García Márquez']], ['Mario Vargas Llosa', 6], ['Jorge Luis Borges', 4]]),
  q(29, 'law', 'In which city does the International Court of Justice sit?', 'The Hague', ['Den Haag', 'Hague'], [['The Hague', 84, ['The Hague', 'Den Haag', 'The Hague, Netherlands']], ['Geneva', 10], ['New York', 6]]),
  q(30, 'sport', 'Which country hosted the 2016 Summer Olympic Games?', 'Brazil', [], [['Brazil', 93, ['Brazil', 'Brazil (Rio de Janeiro)']], ['China', 4], ['United Kingdom', 3]]),
  q(31, 'geography', 'What is the highest mountain in Africa?', 'Mount Kilimanjaro', ['Kilimanjaro'], [['Mount Kilimanjaro', 91, ['Kilimanjaro', 'Mount Kilimanjaro', 'Kibo, Kilimanjaro']], ['Mount Kenya', 7], ['Mount Stanley', 2]]),
  q(32, 'sport', 'How many players does each side have on the field in rugby union?', '15', ['fifteen'], [['15', 76, ['15', 'fifteen']], ['13', 16], ['11', 8]]),
  q(33, 'geography', 'Which city is the capital of Turkey?', 'Ankara', [], [['Ankara', 82], ['Istanbul', 18]]),
  q(34, 'science', 'Who discovered penicillin in 1928?', 'Alexander Fleming', ['Fleming'], [['Alexander Fleming', 92, ['Alexander Fleming', 'Sir Alexander Fleming', 'Fleming']], ['Louis Pasteur', 5], ['Howard Florey', 3]]),
  q(35, 'science', 'Which metal is a liquid at ordinary room temperature?', 'Mercury', ['Hg'], [['Mercury', 88, ['Mercury', 'Mercury (Hg)']], ['Gallium', 10], ['Caesium', 2]]),
  q(36, 'science', 'What is the largest moon of Jupiter?', 'Ganymede', [], [['Ganymede', 80], ['Callisto', 9], ['Io', 7], ['Europa', 4]]),
  q(37, 'history', 'In which year did the Titanic sink?', '1912', [], [['1912', 95], ['1911', 3], ['1914', 2]]),
  q(38, 'geography', 'Which is the largest country in Africa by area?', 'Algeria', [], [['Algeria', 62], ['Democratic Republic of the Congo', 20, ['DR Congo', 'Democratic Republic of the Congo']], ['Sudan', 14], ['Libya', 4]]),
  q(39, 'geography', 'Which city is the seat of the Swiss federal government?', 'Bern', ['Berne'], [['Bern', 74, ['Bern', 'Berne']], ['Zurich', 16, ['Zurich', 'Zürich']], ['Geneva', 10]]),
  q(40, 'history', 'In which year was the first Nobel Prize awarded?', '1901', [], [['1901', 79], ['1900', 12], ['1895', 9]]),

  // Hard: close runners-up, sometimes a wrong favourite.
  q(41, 'science', 'Which element with atomic number 39 takes its name from the Swedish village of Ytterby?', 'Yttrium', ['Y'], [['Yttrium', 48], ['Ytterbium', 38], ['Erbium', 9], ['Terbium', 5]]),
  q(42, 'literature', 'Who was the first woman to receive the Nobel Prize in Literature?', 'Selma Lagerlöf', ['Selma Lagerlof', 'Lagerlöf'], [['Selma Lagerlöf', 46, ['Selma Lagerlöf', 'Selma Lagerlof']], ['Grazia Deledda', 30], ['Pearl S. Buck', 16, ['Pearl Buck', 'Pearl S. Buck']], ['Gabriela Mistral', 8]]),
  q(43, 'geography', 'Which is the deepest lake in the world?', 'Lake Baikal', ['Baikal'], [['Lake Baikal', 86, ['Lake Baikal', 'Baikal']], ['Lake Tanganyika', 12], ['Caspian Sea', 2]]),
  q(44, 'geography', 'Which river flows through the city of Baghdad?', 'Tigris', ['Tigris River'], [['Tigris', 55, ['The Tigris', 'Tigris River']], ['Euphrates', 43, ['The Euphrates', 'Euphrates']], ['Shatt al-Arab', 2]]),
  q(45, 'geography', 'Which city has been the capital of Myanmar since 2006?', 'Naypyidaw', ['Nay Pyi Taw', 'Naypyitaw'], [['Naypyidaw', 58, ['Naypyidaw', 'Nay Pyi Taw']], ['Yangon', 36, ['Yangon', 'Rangoon']], ['Mandalay', 6]]),
  q(46, 'history', 'Who was the second person to walk on the Moon?', 'Buzz Aldrin', ['Edwin Aldrin', 'Aldrin'], [['Buzz Aldrin', 84, ['Buzz Aldrin', 'Edwin "Buzz" Aldrin']], ['Michael Collins', 10], ['Pete Conrad', 6]]),
  q(47, 'arts', 'Who composed the ballet "The Rite of Spring"?', 'Igor Stravinsky', ['Stravinsky'], [['Igor Stravinsky', 88, ['Igor Stravinsky', 'Stravinsky']], ['Sergei Prokofiev', 7], ['Claude Debussy', 5]]),
  q(48, 'geography', 'What is the capital of Bhutan?', 'Thimphu', [], [['Thimphu', 66], ['Paro', 20], ['Punakha', 14]]),
  q(49, 'geography', 'Which country spans the most time zones when its overseas territories are counted?', 'France', [], [['Russia', 44], ['France', 34], ['United States', 16], ['United Kingdom', 6]]),
  q(50, 'science', 'Who invented the mercury-in-glass thermometer in the early eighteenth century?', 'Daniel Gabriel Fahrenheit', ['Fahrenheit', 'Daniel Fahrenheit'], [['Daniel Gabriel Fahrenheit', 52, ['Daniel Gabriel Fahrenheit', 'Fahrenheit']], ['Galileo Galilei', 22, ['Galileo']], ['Anders Celsius', 18, ['Celsius']], ['Santorio Santorio', 8]]),
  q(51, 'geography', 'What is the official language of Suriname?', 'Dutch', [], [['Dutch', 60], ['English', 18], ['Sranan Tongo', 14], ['Portuguese', 8]]),
  q(52, 'geography', 'Which is the smallest sovereign country in South America by area?', 'Suriname', [], [['Suriname', 50], ['Uruguay', 38], ['Guyana', 8], ['French Guiana', 4]]),
  q(53, 'history', 'Which Roman emperor ordered the wall across northern Britain begun in AD 122?', 'Hadrian', ['Emperor Hadrian'], [['Hadrian', 92, ['Hadrian', 'Emperor Hadrian']], ['Antoninus Pius', 6], ['Septimius Severus', 2]]),
  q(54, 'literature', 'Who wrote the novel "The Master and Margarita"?', 'Mikhail Bulgakov', ['Bulgakov'], [['Mikhail Bulgakov', 87, ['Mikhail Bulgakov', 'Bulgakov']], ['Boris Pasternak', 8], ['Nikolai Gogol', 5]]),
  q(55, 'history', 'In which year did the Chernobyl nuclear disaster happen?', '1986', [], [['1986', 94], ['1985', 4], ['1987', 2]]),
  q(56, 'science', 'As of 2024, which planet had the most confirmed moons?', 'Saturn', [], [['Jupiter', 47], ['Saturn', 45], ['Uranus', 8]]),
  q(57, 'geography', 'Which city is the capital of Nigeria?', 'Abuja', [], [['Abuja', 78], ['Lagos', 22]]),
  q(58, 'mathematics', 'Who published the proof of Fermat\'s Last Theorem in 1995?', 'Andrew Wiles', ['Wiles', 'Sir Andrew Wiles'], [['Andrew Wiles', 90, ['Andrew Wiles', 'Sir Andrew Wiles']], ['Richard Taylor', 6], ['Grigori Perelman', 4]]),
  q(59, 'science', 'How many hearts does an octopus have?', '3', ['three'], [['3', 74, ['3', 'three', 'Three hearts']], ['1', 14], ['2', 8], ['9', 4]]),
  q(60, 'science', 'Which gas makes up the largest share of Earth\'s atmosphere?', 'Nitrogen', ['N2'], [['Nitrogen', 91, ['Nitrogen', 'Nitrogen (N₂)']], ['Oxygen', 9]]),
];

/** The demo questions as a dataset for the run wizard (no plausible-answer lists attached). */
export const demoDataset: Dataset = {
  name: 'Sem-ECE demo questions',
  source: 'demo',
  questions: DEMO_QUESTIONS.map(({ plausible: _p, ...question }) => question),
};

/**
 * π of a question for a simulated model; `sharpness` < 1 flattens it (a less sure model) and
 * `swapTop` exchanges the two heaviest answers (a model that favours the runner-up).
 */
export function classDistribution(question: DemoQuestion, { sharpness = 1, swapTop = false }: { sharpness?: number; swapTop?: boolean } = {}): number[] {
  const w = question.plausible.map((a) => Math.pow(a.weight, sharpness));
  if (swapTop && w.length > 1) {
    const order = w.map((_, k) => k).sort((a, b) => w[b] - w[a]);
    [w[order[0]], w[order[1]]] = [w[order[1]], w[order[0]]];
  }
  const total = w.reduce((s, x) => s + x, 0);
  return w.map((x) => x / total);
}
