# Code tracking of the rules (included by common.smk): each rule's `params: code` is a digest of
# the library files its script imports, so editing a module reruns exactly the jobs that use it.

import ast
import functools
import hashlib


@functools.cache
def _module_file(module):
    """File of a geobayes module name (package -> its __init__.py), or None (memoised: a dry run
    resolves some 20,000 names, a few hundred of them distinct)."""
    relative = Path(*module.split(".")[1:])
    if not relative.parts:
        return LIBRARY / "__init__.py"
    for candidate in (LIBRARY / relative.with_suffix(".py"), LIBRARY / relative / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _statements(nodes):
    """Every statement in ``nodes``, nested blocks included (an import is a statement, so the
    expressions, most of a module's nodes, need no visit)."""
    for node in nodes:
        yield node
        for block in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, block, None)
            if isinstance(inner, list):
                yield from _statements(inner)


@functools.cache
def _imported_modules(path):
    """geobayes module names one file imports (parsed once per Snakemake run); ``from m import a``
    gives ``m`` and ``m.a``, since ``a`` may be a submodule."""
    names = []
    for node in _statements(ast.parse(Path(path).read_text()).body):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("geobayes"):
            names.append(node.module)
            names.extend(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.extend(a.name for a in node.names if a.name.startswith("geobayes."))
    return tuple(names)


@functools.cache
def _closure(roots):
    seen, stack = set(), [_module_file(f"geobayes.{root}") for root in roots]
    while stack:
        path = stack.pop()
        if path is None or path in seen:
            continue
        seen.add(path)
        stack.extend(_module_file(name) for name in _imported_modules(path))
    return tuple(sorted(seen))


def library_closure(*roots):
    """The library files that the given root modules import, transitively (static, via ast),
    sorted. Memoised: the DAG asks for the same closures hundreds of times, and parsing them
    again each time was most of a dry run's time."""
    return _closure(tuple(sorted(set(roots))))


@functools.cache
def _file_digest(path, mtime_ns, size):
    """SHA-256 of one file's bytes, memoised per (path, mtime, size): read once per run."""
    return hashlib.sha256(Path(path).read_bytes()).digest()


def code_digest(*roots):
    """Content digest of `library_closure(*roots)`, each rule's ``code`` parameter.

    SHA-256 over each file's path relative to the repository and its bytes, in sorted order,
    as 16 hex digits. Snakemake reruns a job whose parameters changed, so editing a module
    reruns exactly the jobs whose closure holds it (Snakemake does not notice edits inside an
    imported package otherwise), while a mere ``touch``, a checkout that leaves the bytes as
    they were, or moving the clone reruns nothing. (The closure used to be the rules' inputs:
    about 40 absolute paths printed in every job block and stat-ed at every scheduling pass.)
    Each file is read once per (mtime, size) in a run.
    """
    digest = hashlib.sha256()
    for path in library_closure(*roots):
        stat = path.stat()
        digest.update(path.relative_to(REPO).as_posix().encode() + b"\0")
        digest.update(_file_digest(path, stat.st_mtime_ns, stat.st_size))
    return digest.hexdigest()[:16]


@functools.cache
def script_modules(script):
    """The geobayes modules (names relative to the package) that workflow/scripts/<script> imports."""
    names = _imported_modules(REPO / "workflow" / "scripts" / script)
    return tuple(sorted({name.removeprefix("geobayes.") for name in names
                         if name.startswith("geobayes.") and _module_file(name) is not None}))


def script_code(script, *roots):
    """`code_digest` over what workflow/scripts/<script> imports and the further ``roots`` (each
    scripted rule's ``code`` parameter). The script's own imports are always in: a rule whose
    roots were listed by hand missed modules its script used (the keys of `random`, the
    prepared-data loaders, the sidecar writer), so editing them reran nothing."""
    return code_digest(*script_modules(script), *roots)


def method_code(wildcards):
    """`code_digest` of one approximation job, over the method's module and what
    workflow/scripts/approximate.py imports (posterior builder, anchors' precision, I/O, keys)
    (rule parameter)."""
    return script_code("approximate.py", f"methods.{wildcards.method}")
