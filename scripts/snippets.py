#!/usr/bin/env python3
"""Extracts the ```swift blocks of README.md and the DocC articles into a scratch package.

Used by scripts/check-snippets.sh, which builds that package; see there for the rules.

    snippets.py generate ROOT OUT   writes OUT/Package.swift and OUT/Sources/, prints a summary
    snippets.py report ROOT LOG     lists the diagnostics of a build log, relative to ROOT

Each document becomes one library target, compiled as if it were one file read from the top:
declarations (imports, types, extensions, functions) stay at file scope, one file per block;
statements go into `func statements() async throws`, each block in a scope nested in the
previous block's, so a block sees the values earlier blocks made (`provider`, say) and may
make its own of the same name. Every file imports what any block of the document imports.
`#sourceLocation` points every line back at the document, so diagnostics read
`README.md:<line>`. A block that declares a type or function an earlier block of the same
document declared (a complete example that redefines `GitHub`, say) gets a target of its own.
Every target also gets the shared prelude, the declarations of PRELUDE_NAMES in PRELUDE_SOURCE
(the `GitHub` target and `User` model the articles build on), less what it declares itself.
A block whose first non-blank line is `// not compiled: <reason>` is skipped and listed.
"""

import json
import os
import re
import sys
from pathlib import Path

# What the documents use without defining it, taken from the document that defines it.
PRELUDE_SOURCE = "Sources/Moya/Moya.docc/GettingStarted.md"
PRELUDE_NAMES = {"GitHub", "User"}

NOT_COMPILED = re.compile(r"^\s*//\s*not compiled:\s*(.*)$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
DECL_KEYWORDS = {
    "import", "enum", "struct", "class", "actor", "protocol", "extension", "func",
    "typealias", "precedencegroup", "operator", "macro",
}
MODIFIERS = {
    "public", "private", "fileprivate", "internal", "package", "open", "final", "nonisolated",
    "indirect", "static", "prefix", "postfix", "infix", "nonmutating", "mutating", "distributed",
}
NAMED_DECL = re.compile(r"\b(?:enum|struct|class|actor|protocol|typealias|func|macro)\s+(\w+)")
EXTENSION = re.compile(r"\bextension\s+([\w.]+)")
BINDING = re.compile(r"^(?:let|var)\s+(\w+)\b")
BINDING_TUPLE = re.compile(r"^(?:let|var)\s*\(([^)]*)\)")


def documents(root):
    docs = [root / "README.md"]
    docs += sorted(root.glob("Sources/*/*.docc/**/*.md"))
    return [d for d in docs if d.is_file()]


def swift_blocks(path):
    """Yields (first content line number, 1-based; lines) for each ```swift block."""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3).strip()
        if fence[0] == "`" and "`" in info:
            i += 1
            continue
        language = info.split()[0].lower() if info else ""
        body, j = [], i + 1
        while j < len(lines):
            close = re.match(r"^\s*(`{3,}|~{3,})\s*$", lines[j])
            if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= len(fence):
                break
            line = lines[j]
            strip = min(indent, len(line) - len(line.lstrip(" ")))
            body.append(line[strip:])
            j += 1
        if language == "swift":
            yield i + 2, body
        i = j + 1


class Lexer:
    """Tracks, line by line, whether a line starts at the top level of a Swift file."""

    def __init__(self):
        self.stack = ["code"]  # code | str:<quotes>:<hashes> | block:<depth> | interp
        self.depth = 0  # (, [ and { in code
        self.interp_depth = []  # paren depth inside each open interpolation
        self.pound_if = 0

    def at_top(self):
        return self.stack == ["code"] and self.depth == 0 and self.pound_if == 0

    def in_code(self):
        return self.stack[-1] in ("code", "interp")

    def feed(self, line):
        stripped = line.strip()
        if self.in_code() and len(self.stack) == 1:
            if re.match(r"^#if\b", stripped):
                self.pound_if += 1
            elif re.match(r"^#endif\b", stripped):
                self.pound_if -= 1
        i, n = 0, len(line)
        while i < n:
            top = self.stack[-1]
            c = line[i]
            if top in ("code", "interp"):
                if line.startswith("//", i):
                    break
                if line.startswith("/*", i):
                    self.stack.append("block:1")
                    i += 2
                    continue
                m = re.match(r'(#*)("""|")', line[i:])
                if m:
                    self.stack.append("str:%d:%d" % (len(m.group(2)), len(m.group(1))))
                    i += len(m.group(0))
                    continue
                if c in "([{":
                    if top == "interp":
                        self.interp_depth[-1] += 1
                    else:
                        self.depth += 1
                elif c in ")]}":
                    if top == "interp":
                        if self.interp_depth[-1] == 0:
                            self.stack.pop()
                            self.interp_depth.pop()
                        else:
                            self.interp_depth[-1] -= 1
                    else:
                        self.depth -= 1
                i += 1
            elif top.startswith("block:"):
                level = int(top.split(":")[1])
                if line.startswith("*/", i):
                    self.stack.pop()
                    if level > 1:
                        self.stack.append("block:%d" % (level - 1))
                    i += 2
                elif line.startswith("/*", i):
                    self.stack[-1] = "block:%d" % (level + 1)
                    i += 2
                else:
                    i += 1
            else:
                _, quotes, hashes = top.split(":")
                quotes, hashes = int(quotes), int(hashes)
                closing = ('"' * quotes) + ("#" * hashes)
                escape = "\\" + ("#" * hashes)
                if line.startswith(escape + "(", i):
                    self.stack.append("interp")
                    self.interp_depth.append(0)
                    i += len(escape) + 1
                elif line.startswith(escape, i):
                    i += len(escape) + 1
                elif line.startswith(closing, i):
                    self.stack.pop()
                    i += len(closing)
                else:
                    i += 1
        if self.stack[-1].startswith("str:1:"):
            self.stack.pop()  # an unterminated single-line string: do not poison what follows


def code_of(line):
    return re.sub(r"//.*$", "", line).strip()


CONTINUES_NEXT = re.compile(r"(=|,|&&|\|\||\?\?|->|\.|\+|\bin)$")
CONTINUES_PREV = re.compile(r"^(\.|\}|\)|\]|else\b|catch\b|where\b|&&|\|\||\?\?|\?|:|->)")


def split_items(lines):
    """Splits a block into top-level items: lists of (index, line)."""
    lexer = Lexer()
    items, current, pending, previous_code = [], [], [], ""
    for index, line in enumerate(lines):
        starts_top = lexer.at_top()
        code = code_of(line)
        if starts_top and not line.strip():
            if current:
                items.append(current)
                current = []
            lexer.feed(line)
            continue
        is_comment = starts_top and line.strip().startswith(("//", "/*")) and not code_of(line)
        if starts_top and is_comment and not current:
            pending.append((index, line))
            lexer.feed(line)
            continue
        new_item = (
            starts_top
            and not line[:1].isspace()
            and not CONTINUES_PREV.match(line)
            and not (current and CONTINUES_NEXT.search(previous_code))
            and not (current and is_attribute_only(current))
            and not is_comment
        )
        if new_item and current:
            items.append(current)
            current = []
        if pending:
            current = pending + current
            pending = []
        current.append((index, line))
        if code:
            previous_code = code
        lexer.feed(line)
    if current:
        items.append(current)
    return items


def is_attribute_only(item):
    codes = [code_of(line) for _, line in item if code_of(line)]
    return bool(codes) and all(re.fullmatch(r"@[\w.]+(\(.*\))?", c) for c in codes)


def head(item):
    """The item's first code, without attributes and modifiers."""
    text = " ".join(code_of(line) for _, line in item if code_of(line))
    while True:
        text = text.lstrip()
        m = re.match(r"@[\w.]+", text)
        if m:
            text = text[m.end():]
            if text.startswith("("):
                depth = 0
                for k, ch in enumerate(text):
                    depth += ch == "("
                    depth -= ch == ")"
                    if depth == 0:
                        text = text[k + 1:]
                        break
            continue
        word = re.match(r"(\w+)\b", text)
        if word and word.group(1) in MODIFIERS:
            text = text[word.end():]
            continue
        return text


def classify(item):
    h = head(item)
    if h.startswith("#if"):
        inner = [code_of(l) for _, l in item if code_of(l) and not code_of(l).startswith("#")]
        first = head([(0, inner[0])]) if inner else ""
        keyword = re.match(r"(\w+)", first)
        return "decl" if keyword and keyword.group(1) in DECL_KEYWORDS else "stmt"
    keyword = re.match(r"(\w+)", h)
    return "decl" if keyword and keyword.group(1) in DECL_KEYWORDS else "stmt"


def declared_names(item):
    h = head(item)
    m = NAMED_DECL.match(h)
    if m and not h.startswith("extension"):
        return {m.group(1)}
    return set()


def extended_name(item):
    m = EXTENSION.match(head(item))
    return m.group(1) if m else None


def bindings(item):
    h = head(item)
    m = BINDING.match(h)
    if m:
        return [m.group(1)]
    m = BINDING_TUPLE.match(h)
    if m:
        return [n.strip() for n in m.group(1).split(",") if re.fullmatch(r"\w+", n.strip())]
    return []


def imports(items):
    found = []
    for item in items:
        for _, line in item:
            m = re.match(r"^\s*(?:@\w+\s+)?import\s+(?:\w+\s+)?([\w.]+)", code_of(line))
            if m:
                found.append(m.group(1))
    return found


def target_name(root, doc):
    rel = doc.relative_to(root)
    if rel.parts[0] == "Sources":
        name = rel.parts[1] + "_" + rel.stem
    else:
        name = rel.stem
    return "Docs_" + re.sub(r"\W", "_", name)


def location(path, line):
    return '#sourceLocation(file: "%s", line: %d)' % (path, line)


def is_import(item):
    codes = [code_of(l) for _, l in item if code_of(l) and not code_of(l).startswith("#")]
    return bool(codes) and all(re.match(r"^(@\w+\s+)?import\s", c) for c in codes)


def render_declarations(path, first_line, items, header):
    out = list(header)
    for item in items:
        out.append(location(path, first_line + item[0][0]))
        out += [line for _, line in item]
        out.append("#sourceLocation()")
        out.append("")
    return "\n".join(out)


def render_statements(blocks, header):
    """One function for the document: each block's statements in a scope nested in the
    previous block's, so that a block sees the values earlier blocks made and may make its own
    of the same name, as a reader takes them."""
    out = list(header) + ["func statements() async throws {"]
    depth = 0
    for path, first_line, items in blocks:
        if depth:
            out.append("do {")
        depth += 1
        names = []
        for item in items:
            out.append(location(path, first_line + item[0][0]))
            out += [line for _, line in item]
            out.append("#sourceLocation()")
            names += bindings(item)
        # A block's values are for the reader, like a script's globals: never "unused".
        out += ["_ = %s" % n for n in names]
    out += ["}"] * depth
    out.append("")
    return "\n".join(out)


def write_if_changed(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.write_text(text, encoding="utf-8")


def generate(root, out):
    root, out = Path(root).resolve(), Path(out).resolve()

    # name -> {"blocks": [(doc, first line, items)], "declared": set of names}
    targets = {}
    compiled, skipped = [], []
    for doc in documents(root):
        main = target_name(root, doc)
        for first_line, lines in swift_blocks(doc):
            rel = "%s:%d" % (doc.relative_to(root), first_line - 1)
            marker = next((l for l in lines if l.strip()), "")
            m = NOT_COMPILED.match(marker)
            if m:
                skipped.append({"block": rel, "reason": m.group(1).strip()})
                continue
            items = split_items(lines)
            names = set()
            for item in items:
                if classify(item) == "decl":
                    names |= declared_names(item)
            name = main
            if names & targets.get(main, {}).get("declared", set()):
                name = "%s_L%d" % (main, first_line - 1)
            target = targets.setdefault(name, {"blocks": [], "declared": set()})
            target["declared"] |= names
            target["blocks"].append((doc, first_line, items))
            compiled.append({"block": rel, "target": name})

    prelude = []  # (doc, first line, item)
    for name, target in targets.items():
        for doc, first_line, items in target["blocks"]:
            if doc == root / PRELUDE_SOURCE:
                for item in items:
                    if classify(item) == "decl" and (
                        declared_names(item) & PRELUDE_NAMES or extended_name(item) in PRELUDE_NAMES
                    ):
                        prelude.append((doc, first_line, item))
    found = set().union(*[declared_names(item) for _, _, item in prelude])
    if found != PRELUDE_NAMES:
        sys.exit("snippets.py: %s declares %s, not %s" % (PRELUDE_SOURCE, sorted(found), sorted(PRELUDE_NAMES)))

    for name, target in targets.items():
        # Every file of a target imports what any of its blocks imports, as one file would.
        header, seen = ["import Moya"], {"import Moya"}
        for _, _, items in target["blocks"]:
            for item in items:
                if classify(item) == "decl" and is_import(item):
                    text = "\n".join(line.strip() for _, line in item if code_of(line))
                    if text not in seen:
                        seen.add(text)
                        header.append(text)
        header.append("")
        files = {}
        statements = []
        for doc, first_line, items in target["blocks"]:
            decls = [it for it in items if classify(it) == "decl"]
            stmts = [it for it in items if classify(it) == "stmt"]
            if decls:
                files["Block_%05d.swift" % (first_line - 1)] = render_declarations(
                    doc, first_line, decls, header
                )
            if stmts:
                statements.append((doc, first_line, stmts))
        if statements:
            files["Statements.swift"] = render_statements(statements, header)
        # Without #sourceLocation: the document's own target reports problems in these lines, and
        # another document of the same name (every catalog has a GettingStarted.md) would give
        # two files the same #fileID.
        text = list(header)
        for doc, first_line, item in prelude:
            if declared_names(item) & target["declared"] or extended_name(item) in target["declared"]:
                continue
            text.append("// %s:%d" % (doc.relative_to(root), first_line + item[0][0]))
            text += [line for _, line in item]
            text.append("")
        files["Prelude.swift"] = "\n".join(text)
        target["files"] = files

    sources = out / "Sources"
    for name, target in targets.items():
        for file, text in target["files"].items():
            write_if_changed(sources / name / file, text)
    # Targets and files of blocks that are gone.
    if sources.exists():
        for directory in sources.iterdir():
            if directory.name not in targets:
                for f in directory.iterdir():
                    f.unlink()
                directory.rmdir()
                continue
            for f in directory.iterdir():
                if f.name not in targets[directory.name]["files"]:
                    f.unlink()

    write_if_changed(out / "Package.swift", manifest(root, out, targets))
    resolved = root / "Package.resolved"
    if resolved.exists() and not (out / "Package.resolved").exists():
        (out / "Package.resolved").write_text(portable_pins(resolved.read_text(encoding="utf-8")), encoding="utf-8")
    summary = {"compiled": compiled, "not_compiled": skipped, "targets": sorted(targets)}
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print("%d ```swift blocks in %d documents: %d to compile (%d targets), %d marked not compiled"
          % (len(compiled) + len(skipped), len(documents(root)), len(compiled), len(targets), len(skipped)))
    for s in skipped:
        print("  not compiled: %s (%s)" % (s["block"], s["reason"]))


# Modules of the package's dependencies that a block may import, with their product and package.
# A block importing another module fails with "no such module": add it here.
EXTERNAL_MODULES = {
    "NIOCore": ("swift-nio", "https://github.com/apple/swift-nio.git"),
    "NIOPosix": ("swift-nio", "https://github.com/apple/swift-nio.git"),
    "NIOHTTP1": ("swift-nio", "https://github.com/apple/swift-nio.git"),
    "NIOConcurrencyHelpers": ("swift-nio", "https://github.com/apple/swift-nio.git"),
    "NIOFoundationCompat": ("swift-nio", "https://github.com/apple/swift-nio.git"),
    "NIOSSL": ("swift-nio-ssl", "https://github.com/apple/swift-nio-ssl.git"),
    "AsyncHTTPClient": ("async-http-client", "https://github.com/swift-server/async-http-client.git"),
    "Logging": ("swift-log", "https://github.com/apple/swift-log.git"),
    "Tracing": ("swift-distributed-tracing", "https://github.com/apple/swift-distributed-tracing.git"),
    "Instrumentation": ("swift-distributed-tracing", "https://github.com/apple/swift-distributed-tracing.git"),
    "Metrics": ("swift-metrics", "https://github.com/apple/swift-metrics.git"),
    "Crypto": ("swift-crypto", "https://github.com/apple/swift-crypto.git"),
    "OpenCombine": ("OpenCombine", "https://github.com/OpenCombine/OpenCombine.git"),
}


def portable_pins(text):
    """The root's Package.resolved without the pins a mirror made (a local copy of RxSwift for the
    RxMoya trait, say): SwiftPM writes those with the original URL as a local path, which it then
    refuses to read in another package. The scratch package never uses them."""
    try:
        resolved = json.loads(text)
    except ValueError:
        return text
    pins = resolved.get("pins")
    if not isinstance(pins, list):
        return text
    resolved["pins"] = [p for p in pins
                        if not (p.get("kind") == "localSourceControl" and "://" in p.get("location", ""))]
    return json.dumps(resolved, indent=2) + "\n"


def manifest(root, out, targets):
    identity = root.name.lower()
    relative = os.path.relpath(root, out)
    imported = set()
    for target in targets.values():
        for _, _, items in target["blocks"]:
            imported |= set(imports(items))
    products = [
        '.product(name: "Moya", package: "%s")' % identity,
        '.product(name: "CombineMoya", package: "%s")' % identity,
        '.product(name: "MoyaTesting", package: "%s")' % identity,
        '.product(name: "MoyaObservability", package: "%s")' % identity,
    ]
    packages = {}
    for module in sorted(imported & set(EXTERNAL_MODULES)):
        package, url = EXTERNAL_MODULES[module]
        packages[package] = url
        condition = ", condition: .when(platforms: nonApplePlatforms)" if module == "OpenCombine" else ""
        products.append('.product(name: "%s", package: "%s"%s)' % (module, package, condition))
    lines = [
        "// swift-tools-version:6.2",
        "// Generated by scripts/snippets.py: the documentation's ```swift blocks, one target per document.",
        "import PackageDescription",
        "",
        "let nonApplePlatforms: [Platform] = [.linux, .windows, .android, .openbsd, .wasi]",
        "let dependencies: [Target.Dependency] = [",
    ]
    lines += ["    %s," % p for p in products]
    lines += [
        "]",
        "let settings: [SwiftSetting] = [",
        "    .swiftLanguageMode(.v6),",
        "    .treatAllWarnings(as: .error),",
        "]",
        "",
        "let package = Package(",
        '    name: "Snippets",',
        "    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],",
        "    dependencies: [",
        '        .package(path: "%s"),' % relative,
    ]
    # The versions are the root package's: these only name the packages its graph has.
    lines += ['        .package(url: "%s", "0.1.0"..<"100.0.0"),' % url for url in sorted(packages.values())]
    lines += ["    ],", "    targets: ["]
    for name in sorted(targets):
        lines.append(
            '        .target(name: "%s", dependencies: dependencies, swiftSettings: settings),' % name
        )
    lines += ["    ]", ")", ""]
    return "\n".join(lines)


DIAGNOSTIC = re.compile(r"^(/[^:]+):(\d+):(\d+): (error|warning): (.*)$")


def report(root, log):
    root = Path(root).resolve()
    seen, problems = set(), []
    for line in Path(log).read_text(encoding="utf-8", errors="replace").split("\n"):
        m = DIAGNOSTIC.match(line)
        if not m:
            continue
        path = Path(m.group(1))
        try:
            shown = str(path.resolve().relative_to(root))
        except ValueError:
            continue
        key = (shown, m.group(2), m.group(3), m.group(5))
        if key in seen:
            continue
        seen.add(key)
        problems.append("%s:%s:%s: %s: %s" % (shown, m.group(2), m.group(3), m.group(4), m.group(5)))
    for p in problems:
        print(p)
    return len(problems)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "generate":
        generate(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "report":
        report(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
