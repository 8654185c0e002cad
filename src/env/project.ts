// Reading a repository's own configuration for `env add`: JSON, TOML and INI
// files (package.json, pyproject.toml, setup.cfg, tox.ini, pytest.ini), and a
// bounded walk of its files. A file that does not parse reads as absent: the
// runner that owns it will report the problem when it runs.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseIni } from 'ini';
import { parse as parseToml } from 'smol-toml';
import { isRecord } from '../util/guards.js';
import { walkFiles } from '../util/walk.js';

/** Config files larger than this are not read (no project's config is this big). */
const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

export type Config = Record<string, unknown>;

export class Project {
  private files?: string[];
  private readonly texts = new Map<string, string | null>();
  private readonly configs = new Map<string, Config | null>();
  constructor(readonly dir: string) {}

  exists(rel: string): boolean {
    return existsSync(join(this.dir, rel));
  }

  /** A file's text, read once: inference asks for package.json or a test file from several places. */
  text(rel: string): string | null {
    if (!this.texts.has(rel)) this.texts.set(rel, this.read(rel));
    return this.texts.get(rel) ?? null;
  }

  private read(rel: string): string | null {
    try {
      const path = join(this.dir, rel);
      const st = statSync(path);
      return st.isFile() && st.size <= MAX_CONFIG_BYTES ? readFileSync(path, 'utf8') : null;
    } catch {
      return null;
    }
  }

  json(rel: string): Config | null {
    return this.parsed('json', rel, (t) => JSON.parse(t) as unknown);
  }

  toml(rel: string): Config | null {
    return this.parsed('toml', rel, (t) => parseToml(t) as unknown);
  }

  /** An INI file as Python's configparser reads it: indented lines continue the value above them. */
  ini(rel: string): Config | null {
    return this.parsed('ini', rel, (t) => parseIni(joinContinuations(t)) as unknown);
  }

  /** A config file parsed once; callers only read the result. */
  private parsed(kind: string, rel: string, parse: (text: string) => unknown): Config | null {
    const key = `${kind}:${rel}`;
    if (!this.configs.has(key)) this.configs.set(key, this.parse(rel, parse));
    return this.configs.get(key) ?? null;
  }

  private parse(rel: string, parse: (text: string) => unknown): Config | null {
    const text = this.text(rel);
    if (text === null) return null;
    try {
      const v = parse(text);
      return isRecord(v) ? v : null;
    } catch {
      return null;
    }
  }

  /** Relative paths of the repository's files (no dependency, build or hidden folders), up to 20,000, sorted. */
  list(): string[] {
    this.files ??= walkFiles(this.dir, { keep: (_, e) => e.isFile(), maxFiles: 20000, maxDepth: 12 });
    return this.files;
  }

  /** Files whose path matches, e.g. test files. */
  find(pred: (rel: string) => boolean): string[] {
    return this.list().filter(pred);
  }
}

/** A nested key of parsed config: get(pyproject, 'tool', 'pytest', 'ini_options'). */
export function get(config: Config | null | undefined, ...keys: string[]): unknown {
  let v: unknown = config;
  for (const k of keys) {
    if (!isRecord(v)) return undefined;
    v = v[k];
  }
  return v;
}

/**
 * Python's INI dialect (setup.cfg, tox.ini, pytest.ini) continues a value on
 * indented lines ("addopts =\n    --cov=x\n    -q"); the ini package does
 * not, so those lines are joined onto their key first. Comment lines inside
 * a value are dropped, as configparser drops them.
 */
export function joinContinuations(text: string): string {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const continues = /^[ \t]+\S/.test(line) && out.length > 0 && /=|:/.test(out[out.length - 1]!) && !/^\s*\[/.test(out[out.length - 1]!);
    if (continues) {
      if (!/^\s*[#;]/.test(line)) out[out.length - 1] += ` ${line.trim()}`;
    } else out.push(line);
  }
  return out.join('\n');
}
