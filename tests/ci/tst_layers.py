#!/usr/bin/env python3
"""tst_layers: the claims of docs/ARCHITECTURE.md's "Layers" that the code can show, checked.

- Each library's files include only their own library's headers and those of the libraries it
  links, as the first table of rooms says (its "may include" or "links" column, followed through:
  gui links render, which links figure data); every folder of src/ and app/ has its row.
- The rules under the table that name what a layer must not include: nothing in src/core includes
  a widget, a painter or QCustomPlot; nothing in src/render/data includes QCustomPlot or a widget.
- Each family's line of src/core/FamilyList.h names a folder holding its parameters
  (<Family>Params.h), its manifest and its descriptor (<Family>Family.cpp).
Then the same script is run on a copy of a small tree with one include across the layers, which it
must refuse: a check that cannot fail proves nothing.

usage: tst_layers.py SOURCE_DIR"""
import pathlib
import re
import shutil
import sys
import tempfile

# The words of the table's "links" column that are the project's libraries; the rest (Qt, Eigen,
# zlib, ...) are packages.
LIBRARY_WORDS = {'core': 'posenc_core', 'check': 'posenc_check', 'readers': 'posenc_readers',
                 'io': 'posenc_io', 'figure data': 'posenc_figuredata', 'render': 'posenc_render',
                 'gui': 'posenc_gui', 'cli': 'posenc_cli'}
SCREEN = re.compile(r'#include\s*[<"](QtWidgets/|QWidget|QPainter|QCustomPlot|qcustomplot)', re.I)
PLOT_OR_WIDGET = re.compile(r'#include\s*[<"](QtWidgets/|QWidget|QCustomPlot|qcustomplot)', re.I)
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layers_table(doc):
    """Rows of the table of rooms (its header names `library` and `links` or `may include`): folder
    -> [(library, [linked libraries and headers taken alone])]. A header named in the links cell
    (`core/Block.h`) is one the library includes without linking its library: a header of types
    alone."""
    rows, columns = {}, None
    for line in doc.splitlines():
        if not line.startswith('|'):
            columns = None
            continue
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if columns is None:
            if rows:
                break
            if 'library' in cells and ('links' in cells or 'may include' in cells):
                columns = {name: i for i, name in enumerate(cells)}
            continue
        if not cells[0].startswith('`'):
            continue
        links_cell = cells[columns.get('links', columns.get('may include'))]
        folder, library = cells[0].strip('`').rstrip('/'), cells[columns['library']].split()[0].strip('`')
        headers = re.findall(r'`([\w/]+\.h)`', links_cell)
        links = re.sub(r'\([^)]*\)', '', links_cell)
        linked = [LIBRARY_WORDS[w.strip()] for w in links.split(',') if w.strip() in LIBRARY_WORDS]
        rows.setdefault(folder, []).append((library, linked + headers))
    if not rows:
        raise SystemExit('FAIL docs/ARCHITECTURE.md has no table of rooms (library, links)')
    return rows


def readers_files(root):
    """The files of src/io that make posenc_readers, as src/io/CMakeLists.txt lists them."""
    text = (root / 'src/io/CMakeLists.txt').read_text()
    block = re.search(r'add_library\(posenc_readers STATIC(.*?)\)', text, re.S).group(1)
    return {'src/io/' + name for name in block.split()}


def library_of(path, rows, readers):
    """The library a file of the tree belongs to, by the deepest folder of the table holding it."""
    if path.startswith('src/io/'):
        return 'posenc_readers' if path in readers else 'posenc_io'
    folders = [f for f in rows if path.startswith(f + '/')]
    if not folders:
        return None
    return rows[max(folders, key=len)][0][0]


def closure(library, links):
    seen, todo = set(), [library]
    while todo:
        for linked in links.get(todo.pop(), []):
            if linked not in seen:
                seen.add(linked)
                todo.append(linked)
    return seen


def problems(root):
    rows = layers_table((root / 'docs/ARCHITECTURE.md').read_text())
    readers = readers_files(root)
    links = {lib: linked for entries in rows.values() for lib, linked in entries}
    found = []
    sources = [p for top in ('src', 'app') for p in (root / top).rglob('*') if p.suffix in ('.cpp', '.h', '.inc')]
    for path in sorted(sources):
        rel = path.relative_to(root).as_posix()
        own = library_of(rel, rows, readers)
        if own is None:
            folder = rel.split('/')[0] + '/' + rel.split('/')[1] if rel.startswith('src/') else 'app'
            found.append(f'{rel}: its folder {folder}/ has no row in the Layers table')
            continue
        text = path.read_text(errors='replace')
        allowed = closure(own, links) | {own}
        for name in INCLUDE.findall(text):
            for base in (path.parent, root / 'src'):
                target = (base / name).resolve()
                if target.is_file() and root.resolve() in target.parents:
                    theirs = library_of(target.relative_to(root.resolve()).as_posix(), rows, readers)
                    alone = target.relative_to((root / 'src').resolve()).as_posix() if (root / 'src').resolve() in target.parents else ''
                    if theirs is not None and theirs not in allowed and alone not in allowed:
                        found.append(f'{rel}: includes "{name}" of {theirs}, which {own} does not link')
                    break
        if rel.startswith('src/core/') and SCREEN.search(text):
            found.append(f'{rel}: core includes a widget, a painter or QCustomPlot')
        if rel.startswith('src/render/data/') and PLOT_OR_WIDGET.search(text):
            found.append(f'{rel}: figure data includes QCustomPlot or a widget')
    family_list = (root / 'src/core/FamilyList.h').read_text()
    for folder, name in re.findall(r'#include "core/(\w+)/(\w+)Family\.inc"', family_list):
        for needed in (f'{name}Params.h', f'{name}Family.cpp'):
            if not (root / 'src/core' / folder / needed).is_file():
                found.append(f'src/core/{folder}/: the family has no {needed}')
    return found


def refuses_a_crossing(root):
    """A copy of the tree's docs and CMake with core including a window header must be refused."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = pathlib.Path(tmp)
        for rel in ('docs/ARCHITECTURE.md', 'src/io/CMakeLists.txt', 'src/core/FamilyList.h'):
            (copy / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(root / rel, copy / rel)
        (copy / 'app').mkdir()
        (copy / 'src/gui').mkdir(parents=True)
        (copy / 'src/gui/MainWindow.h').write_text('#pragma once\n')
        (copy / 'src/core/Engine.cpp').write_text('#include "gui/MainWindow.h"\n')
        (copy / 'src/core/FamilyList.h').write_text('')
        found = problems(copy)
        return any('src/core/Engine.cpp: includes "gui/MainWindow.h" of posenc_gui' in p for p in found)


def main():
    root = pathlib.Path(sys.argv[1])
    found = problems(root)
    for line in found:
        print('FAIL', line)
    if not refuses_a_crossing(root):
        print('FAIL the check does not refuse core including a gui header')
        return 1
    print(f'{len(found)} problems')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
