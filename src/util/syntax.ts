// Parsing source files with tree-sitter (WebAssembly build, grammars from the
// grammar packages' own .wasm files). Languages load once, on first use.
import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

export type SyntaxLanguage = 'javascript' | 'typescript' | 'tsx' | 'python';

const require = createRequire(import.meta.url);

const WASM: Record<SyntaxLanguage, string> = {
  javascript: 'tree-sitter-javascript/tree-sitter-javascript.wasm',
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
  python: 'tree-sitter-python/tree-sitter-python.wasm',
};

let init: Promise<void> | undefined;
const languages = new Map<SyntaxLanguage, Promise<Language>>();

async function language(lang: SyntaxLanguage): Promise<Language> {
  init ??= Parser.init();
  await init;
  let l = languages.get(lang);
  if (!l) {
    l = Language.load(require.resolve(WASM[lang]));
    languages.set(lang, l);
  }
  return l;
}

/** The syntax of a file from its extension, or null when it is not supported. */
export function languageOf(path: string): SyntaxLanguage | null {
  if (/\.(c|m)?jsx?$/.test(path)) return 'javascript';
  if (/\.tsx$/.test(path)) return 'tsx';
  if (/\.(c|m)?ts$/.test(path) && !path.endsWith('.d.ts')) return 'typescript';
  if (/\.py$/.test(path)) return 'python';
  return null;
}

export async function parse(source: string, lang: SyntaxLanguage): Promise<Tree> {
  const lang_ = await language(lang); // also initializes the runtime
  const parser = new Parser();
  parser.setLanguage(lang_);
  const tree = parser.parse(source);
  parser.delete();
  if (!tree) throw new Error(`tree-sitter could not parse the ${lang} source`);
  return tree;
}

/** True when the source parses without any error or missing node. */
export async function parsesCleanly(source: string, lang: SyntaxLanguage): Promise<boolean> {
  const tree = await parse(source, lang);
  const ok = !tree.rootNode.hasError;
  tree.delete();
  return ok;
}

/** Every node below (and including) `node`, depth first. */
export function* descendants(node: Node): Generator<Node> {
  yield node;
  for (const child of node.children) if (child) yield* descendants(child);
}

export type { Node, Tree };
