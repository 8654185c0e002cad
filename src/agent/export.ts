// Trajectory exports: OpenAI-messages JSONL (fine-tuning), mini-swe-agent
// trajectory files, and Harbor ATIF. One module per format under export/.
export { fromOpenAIJsonl, toOpenAIExample, toOpenAIJsonl, type OpenAIExample, type OpenAIExportOptions } from './export/openai.js';
export { fromMiniSweAgent, MINI_FORMAT, toMiniSweAgent, type MiniMessage, type MiniTrajectory } from './export/mini.js';
export { ATIF_VERSION, ATIF_VERSIONS, fromAtif, toAtif, type AtifStep, type AtifTrajectory } from './export/atif.js';
