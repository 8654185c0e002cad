// The fallback of a Python dependency layer where pip cannot reach an index:
// the distributions the operating system installed (Debian's python3-*
// packages under /usr/lib/python3/dist-packages), copied into the layer with
// their metadata and, transitively, what they require. Only the interpreter's
// major.minor has to match; versions are whatever the system has, and the
// step says so. A requirement found nowhere fails the step, naming pip, so the
// failure stays classed with pip's.
import { shellQuote } from '../../util/shell.js';

/** Where operating systems put their Python packages (Debian and its derivatives first). */
export const SYSTEM_SITE_DIRS = ['/usr/lib/python3/dist-packages', '/usr/lib/python3.11/site-packages'];

// Runs in the sandbox with the project's interpreter: argv = target folder, then requirement strings.
const SCRIPT = String.raw`
import importlib.metadata as md, os, re, shutil, sys
target, wanted = sys.argv[1], sys.argv[2:]
dirs = [d for d in ${JSON.stringify(SYSTEM_SITE_DIRS)} if os.path.isdir(d)]
norm = lambda n: re.sub(r"[-_.]+", "-", n or "").lower()
name_of = lambda r: (re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", r) or [None, None])[1]
system = {}
for d in md.distributions(path=dirs):
    system.setdefault(norm(d.metadata["Name"]), d)
have = {norm(d.metadata["Name"]) for d in md.distributions()} | {norm(d.metadata["Name"]) for d in md.distributions(path=[target])}
def tops(d):
    top = d.read_text("top_level.txt")
    names = [t.strip() for t in top.split()] if top else []
    if not names and d.files:
        names = sorted({str(f).split("/")[0] for f in d.files if not str(f).split("/")[0].endswith((".dist-info", ".egg-info", ".data")) and ".." not in str(f)})
    return names or [norm(d.metadata["Name"]).replace("-", "_")]
def copy(d):
    root, info = str(d.locate_file("")), str(getattr(d, "_path", ""))
    if os.path.isdir(info):
        shutil.copytree(info, os.path.join(target, os.path.basename(info)), dirs_exist_ok=True)
    for t in tops(d):
        for entry in os.listdir(root):
            if entry == t or entry == t + ".py" or (entry.startswith(t + ".") and entry.endswith(".so")):
                src, dst = os.path.join(root, entry), os.path.join(target, entry)
                shutil.copytree(src, dst, dirs_exist_ok=True) if os.path.isdir(src) else shutil.copy2(src, dst)
os.makedirs(target, exist_ok=True)
missing, queue, done = [], [name_of(r) for r in wanted if name_of(r)], set()
while queue:
    n = norm(queue.pop(0))
    if n in done or n in have:
        continue
    done.add(n)
    d = system.get(n)
    if d is None:
        missing.append(n)
        continue
    copy(d)
    print(f"{n} {d.version}: from the system's packages", flush=True)
    queue += [name_of(r) for r in (d.requires or []) if "extra ==" not in r and name_of(r)]
# A requirement no file of the project imports (a docs or release tool) is left out rather than failing the layer.
imported = set()
for base, subdirs, files in os.walk("."):
    subdirs[:] = [d for d in subdirs if not d.startswith(".") and d not in ("node_modules", "build", "dist")]
    for f in files[:2000]:
        if f.endswith(".py"):
            try:
                with open(os.path.join(base, f), encoding="utf-8", errors="replace") as fh:
                    imported.update(re.findall(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", fh.read(1 << 20), re.M))
            except OSError:
                pass
modules = lambda n: {n.replace("-", "_"), n.replace("-", "_").removeprefix("python_"), n.replace("-", "_").removeprefix("py"), n.replace("-", "")}
needed = [n for n in missing if modules(n) & imported]
for n in missing:
    if n not in needed:
        print(f"{n}: in neither pip's reach nor the system's packages, and no file imports it: left out", flush=True)
if needed:
    print("pip install failed, and the system's packages have none of: " + ", ".join(needed), file=sys.stderr)
    sys.exit(1)
`;

/** The placeholder a setup step names the fallback by; expanded when the step runs, so specs stay readable. */
export const SYSTEM_PACKAGES = '{system-packages}';

/** The setup step that copies `requirements` from the system's packages into `target`. */
export function systemPackagesStep(target: string, requirements: readonly string[]): string {
  return `{python} ${SYSTEM_PACKAGES} ${shellQuote(target)} ${requirements.map(shellQuote).join(' ')}`;
}

/** A setup command with the placeholder expanded into the script. */
export function expandSystemPackages(command: string): string {
  return command.replaceAll(SYSTEM_PACKAGES, `-c ${shellQuote(SCRIPT)}`);
}

/** A setup command without the fallback: an exported image reaches its own index, and its Python has no system packages. */
export function withoutSystemPackages(command: string): string {
  return command.replace(/ \|\| \{python\} \{system-packages\} .*$/s, '');
}
