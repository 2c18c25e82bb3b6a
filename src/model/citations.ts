/** The papers the app implements, cited where their methods appear (Home, every report, the README). */
export interface Paper {
  title: string;
  authors: string;
  year: number;
  arxiv: string;
  url: string;
}

export const SEM_ECE_PAPER: Paper = {
  title: 'A Semantic-Sampling Framework for Evaluating Calibration in Open-Ended Question Answering',
  authors: 'Zhanliang Wang, Jiancong Xiao, Ruochen Jin, Shu Yang, Bojian Hou, Li Shen',
  year: 2026,
  arxiv: '2605.08432',
  url: 'https://arxiv.org/abs/2605.08432',
};

export const CONFIDENCEBENCH_PAPER: Paper = {
  title: 'ConfidenceBench: Evaluating Confidence Calibration in Large Language Models',
  authors: 'Matthew ffrench-Constant, Daniel Yang, Xinmeng Huang, Sanyam Kapoor',
  year: 2026,
  arxiv: '2607.20526',
  url: 'https://arxiv.org/abs/2607.20526',
};

/** "Authors (year). Title. arXiv:id" */
export function citation(p: Paper): string {
  return `${p.authors} (${p.year}). ${p.title}. arXiv:${p.arxiv}`;
}
