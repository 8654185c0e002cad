// LLM generators through any OpenAI-compatible endpoint:
// - modify: the model introduces a subtle bug into one function;
// - rewrite: the model reimplements a function from its signature and
//   docstring; where the result differs from the original, that difference
//   is the bug.
// The changed function must parse; validation decides whether it is a task.
import type { ChatClient } from '../model/openai.js';
import type { BugEdit } from '../task/task.js';
import { deriveSeed, rng } from '../util/rng.js';
import type { SourceFile } from './sources.js';
import { descendants, parse, parsesCleanly, type Node } from '../util/syntax.js';

const FUNCTION_TYPES = ['function_declaration', 'generator_function_declaration', 'method_definition', 'function_definition'];

export type LlmStrategy = 'llm-modify' | 'llm-rewrite';

export type LlmResult =
  | { edit: BugEdit; files: Record<string, { before: string; after: string }>; seed: number }
  | { failure: 'no-site' | 'unparseable' | 'no-change' | 'infra' };

interface Site {
  file: SourceFile;
  node: Node;
}

async function functionSites(files: SourceFile[]): Promise<Site[]> {
  const sites: Site[] = [];
  for (const file of files) {
    const tree = await parse(file.text, file.lang);
    for (const n of descendants(tree.rootNode)) {
      if (FUNCTION_TYPES.includes(n.type) && n.endPosition.row - n.startPosition.row >= 3) sites.push({ file, node: n });
    }
  }
  return sites;
}

/** The first fenced code block of a reply, or the whole reply. */
export function extractCode(reply: string): string {
  const m = /```[\w-]*\n([\s\S]*?)```/.exec(reply);
  return (m ? m[1]! : reply).replace(/\s+$/, '');
}

/** Re-indents code so that its first line sits at `column` like the original. */
export function reindent(code: string, indent: string): string {
  const lines = code.split('\n');
  const widths = lines.filter((l) => l.trim()).map((l) => l.match(/^[ \t]*/)![0].length);
  const cut = Math.min(...widths);
  return lines.map((l, i) => (i === 0 ? l.slice(cut) : l.trim() ? indent + l.slice(cut) : '')).join('\n');
}

function signatureWithDocs(site: Site): string {
  const text = site.node.text;
  if (site.file.lang === 'python') {
    const body = site.node.childForFieldName('body');
    const head = text.slice(0, (body?.startIndex ?? site.node.endIndex) - site.node.startIndex).trimEnd();
    const first = body?.namedChildren[0];
    const doc = first && first.type === 'expression_statement' && first.namedChildren[0]?.type === 'string' ? first.text : '';
    return `${head}\n    ${doc ? `${doc}\n    ` : ''}...`;
  }
  const body = site.node.childForFieldName('body');
  const head = text.slice(0, (body?.startIndex ?? site.node.endIndex) - site.node.startIndex).trimEnd();
  const prev = site.node.previousSibling;
  const doc = prev?.type === 'comment' ? `${prev.text}\n` : '';
  return `${doc}${head} {\n  // ...\n}`;
}

export function prompt(strategy: LlmStrategy, site: Site): string {
  const lang = site.file.lang;
  if (strategy === 'llm-modify') {
    return [
      `Below is a function from \`${site.file.rel}\` (${lang}). Rewrite it with one subtle bug that changes its behaviour for some inputs,`,
      'the kind a developer could plausibly make (an off-by-one, a wrong comparison, a missed case, a swapped argument).',
      'Keep its name, signature and formatting, and add no comment that points at the bug.',
      `Reply with the complete function only, in one \`\`\`${lang} code block.`,
      '',
      `\`\`\`${lang}\n${site.node.text}\n\`\`\``,
    ].join('\n');
  }
  return [
    `Implement this function from \`${site.file.rel}\` (${lang}) from its signature and documentation.`,
    `Reply with the complete function only, in one \`\`\`${lang} code block.`,
    '',
    `\`\`\`${lang}\n${signatureWithDocs(site)}\n\`\`\``,
  ].join('\n');
}

export class LlmGenerator {
  private sites?: Promise<Site[]>;
  private sitesFor?: SourceFile[];

  constructor(
    readonly client: ChatClient,
    readonly temperature = 1,
  ) {}

  get model(): string {
    return this.client.model;
  }

  async generate(strategy: LlmStrategy, files: SourceFile[], at: { seed: number; salt: string; index: number }): Promise<LlmResult> {
    if (this.sitesFor !== files) {
      this.sitesFor = files;
      this.sites = functionSites(files);
    }
    const sites = await this.sites!;
    if (sites.length === 0) return { failure: 'no-site' };
    const seed = deriveSeed(at.seed, at.salt, strategy, at.index);
    const site = sites[Math.floor(rng(seed)() * sites.length)]!;
    let reply: string;
    try {
      const res = await this.client.chat({ messages: [{ role: 'user', content: prompt(strategy, site) }], temperature: this.temperature, seed });
      reply = res.message.content ?? '';
    } catch {
      return { failure: 'infra' };
    }
    const { file, node } = site;
    const indent = file.text.slice(file.text.lastIndexOf('\n', node.startIndex - 1) + 1, node.startIndex);
    const code = reindent(extractCode(reply), /^[ \t]*$/.test(indent) ? indent : '');
    const after = file.text.slice(0, node.startIndex) + code + file.text.slice(node.endIndex);
    if (after === file.text || code.trim() === node.text.trim()) return { failure: 'no-change' };
    if (!(await parsesCleanly(after, file.lang))) return { failure: 'unparseable' };
    const line = file.text.slice(0, node.startIndex).split('\n').length;
    return {
      seed,
      edit: { operator: strategy, family: 'llm', file: file.rel, line, column: indent.length + 1 },
      files: { [file.rel]: { before: file.text, after } },
    };
  }
}
