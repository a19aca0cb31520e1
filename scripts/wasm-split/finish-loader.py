#!/usr/bin/env python3
"""Moves the stylesheets that only split pages use out of index.html and into those pages' loads.

trunk links every stylesheet from index.html (so `trunk serve` and unsplit builds stay styled).
In a split build, table.css and routing.css are only needed once such a page's code is there:
this drops their <link>s from the staged index.html and makes __wasm_split.js load each one,
beside the page's wasm chunks, before the page shows (so it never shows unstyled). A failed load
fails the page's load like a missing chunk does. URLs resolve against __wasm_split.js, i.e. the
server, so an embedded portal (a host page on another origin) gets them too.

Also points __wasm_split.js at the hashed names trunk and post-build gave the main module's JS
and the chunks: each OLD=NEW argument replaces the quoted URL "./OLD" with "./NEW".

Usage: finish-loader.py STAGING_DIR [OLD=NEW...]
"""
import re
import sys
from pathlib import Path

GROUPS_RS = Path(__file__).resolve().parents[2] / "src" / "groups.rs"


def css_for(groups_rs):
    """split name -> stylesheets (style/NAME.css) that only it needs, read from the portal's
    one list of groups (src/groups.rs): each `page: split(...)` entry's `stylesheets: [...]`."""
    text = groups_rs.read_text()
    body = text[text.index("\ngroups! {"):]
    entry = re.compile(r"\n    (\w+) \{(.*?)\n    \}", re.S)
    out = {}
    for slug, fields in entry.findall(body):
        sheets = re.search(r"stylesheets: \[([^\]]*)\]", fields)
        if sheets is None:
            sys.exit(f"finish-loader: the group {slug} in {groups_rs} has no stylesheets: [...]")
        if "page: split(" in fields:
            out[slug] = re.findall(r'"([\w-]+)"', sheets.group(1))
    if not out:
        sys.exit(f"finish-loader: no split page found in {groups_rs}")
    return out


CSS_FOR = css_for(GROUPS_RS)

CSS_LOADER = """
const cssLoads = new Map();
function cssLoader(href) {
    return () => {
        const url = new URL(href, import.meta.url).href;
        let load = cssLoads.get(url);
        if (load === undefined) {
            load = new Promise((resolve, reject) => {
                const link = document.createElement("link");
                link.rel = "stylesheet";
                link.href = url;
                link.onload = () => resolve();
                link.onerror = () => {
                    link.remove();
                    cssLoads.delete(url);
                    reject(new Error(`could not load the stylesheet ${url}`));
                };
                document.head.appendChild(link);
            });
            cssLoads.set(url, load);
        }
        return load;
    };
}
"""


def main(staging, renames):
    staging = Path(staging)
    index = staging / "index.html"
    html = index.read_text()
    loader_path = staging / "__wasm_split.js"
    loader = loader_path.read_text()
    for rename in renames:
        old, new = rename.split("=", 1)
        if f'"./{old}"' not in loader:
            sys.exit(f"finish-loader: __wasm_split.js does not name ./{old}")
        loader = loader.replace(f'"./{old}"', f'"./{new}"')

    files = {}
    for name in sorted({n for names in CSS_FOR.values() for n in names}):
        link = re.compile(r'\s*<link\b[^>]*href="?/(%s-[0-9a-f]{16}\.css)"?[^>]*>' % re.escape(name))
        found = link.findall(html)
        if len(found) != 1:
            sys.exit(f"finish-loader: expected one <link> to {name}-<hash>.css in index.html, found {len(found)}")
        files[name] = found[0]
        html = link.sub("", html, count=1)

    consts = "".join(f'const __css_{n} = cssLoader("./{f}");\n' for n, f in files.items())
    marker = "function makeLoad("
    if marker not in loader:
        sys.exit("finish-loader: __wasm_split.js has no makeLoad (wasm-split-cli changed its output?)")
    loader = loader.replace(marker, CSS_LOADER + consts + marker, 1)
    for split, names in CSS_FOR.items():
        head = f"export const __wasm_split_load_{split} = wrapAsyncCb(makeLoad("
        start = loader.find(head)
        if start < 0:
            sys.exit(f"finish-loader: __wasm_split.js has no loader for the split {split}")
        end = loader.find("]));", start)
        deps_at = loader.rfind(", [", start, end)
        if end < 0 or deps_at < 0:
            sys.exit(f"finish-loader: cannot read the dependencies of the split {split}")
        deps = [d.strip() for d in loader[deps_at + 3:end].split(",") if d.strip()]
        deps += [f"__css_{n}" for n in names]
        loader = loader[:deps_at] + ", [" + ", ".join(deps) + loader[end:]
    html = with_preloads(html, loader)
    loader_path.write_text(loader)
    index.write_text(html)
    print(f"finish-loader: {', '.join(files.values())} now load with their pages", file=sys.stderr)


# The route's first segment -> the split its page loads with (the sign-in page's route).
ROUTE_OF_SPLIT = {"sign_in": "signin"}

# No apostrophes and no quoted file names in it: the server reads quoted names out of
# index.html (static_files.rs).
PRELOADER = """<script>
(() => {
  // What the page at this URL will load next, fetched now, in parallel with the main module
  // (written by scripts/wasm-split/finish-loader.py from the chunk loader).
  // Names and extensions apart: the server reads every quoted wasm and css file name in
  // this file as the start bundle (embed.js, static_files.rs), which these are not.
  const pages = %s;
  const wanted = pages[location.pathname.split("/")[1] || ""];
  for (const [name, ext] of wanted || []) {
    const link = document.createElement("link");
    link.rel = "preload";
    link.href = "/" + name + "." + ext;
    link.as = ext === "css" ? "style" : "fetch";
    if (ext === "wasm") link.crossOrigin = "anonymous";
    document.head.appendChild(link);
  }
})();
</script>
"""


def with_preloads(html, loader):
    """index.html with a small script that preloads, on a cold load of a page's URL, the wasm
    chunks and stylesheets that page will load, so they arrive while the main module is still
    being fetched instead of after it asked for them (one round trip less on the way to the
    first screen)."""
    import json

    def file_of(block):
        m = re.search(r'new URL\("\./([^"]+\.wasm)"', block)
        return m.group(1) if m else None

    chunk_files = {}
    for m in re.finditer(r"const (__chunk_\d+) = makeLoad\((.*?)\n, \[", loader, re.S):
        chunk_files[m.group(1)] = file_of(m.group(2))
    css_files = dict(re.findall(r'const (__css_\w+) = cssLoader\("\./([^"]+)"\);', loader))
    pages = {}
    for m in re.finditer(r"export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\((.*?)\n, \[([^\]]*)\]\)\);", loader, re.S):
        split, block, deps = m.group(1), m.group(2), m.group(3)
        def parts(f):
            name, ext = f.rsplit(".", 1)
            return (name, ext)
        wanted = [parts(file_of(block))]
        for d in (d.strip() for d in deps.split(",") if d.strip()):
            if d in chunk_files and chunk_files[d]:
                wanted.append(parts(chunk_files[d]))
            elif d in css_files:
                wanted.append(parts(css_files[d]))
            else:
                sys.exit(f"finish-loader: the split {split} depends on {d}, which is neither a chunk nor a stylesheet")
        pages[ROUTE_OF_SPLIT.get(split, split)] = wanted
    if not pages:
        sys.exit("finish-loader: no page loader found in __wasm_split.js")
    marker = "</title>"
    if marker not in html:
        sys.exit("finish-loader: index.html has no </title> to put the preloads after")
    script = PRELOADER % json.dumps(pages, separators=(",", ":"))
    return html.replace(marker, marker + "\n" + script, 1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
