// The layers of src/: the ONE place the rank of each top-level folder is
// written down. docs/architecture.md describes these layers and points here;
// tests/architecture/layers.test.ts enforces them.
//
// Rule: a file may import only from its own folder or from folders of a LOWER
// rank (folders of equal rank do not import each other), and no import cycle
// may exist among the files of src/. A new top-level folder must be added here.
export const LAYERS: Readonly<Record<string, number>> = {
  util: 0,
  runtime: 1,
  report: 1,
  model: 1,
  tinker: 1,
  workspace: 2,
  store: 2,
  tokens: 2,
  sampler: 2,
  env: 3,
  'tinker-dev': 3,
  task: 4,
  grading: 5,
  verifier: 6,
  agent: 6,
  taskpilot: 7,
  interop: 7,
  curriculum: 8,
  rl: 9,
  policy: 10,
  lm: 10,
  queue: 11,
  train: 12,
  eval: 12,
  onboard: 13,
  serve: 13,
  evidence: 13,
  cli: 14,
};
