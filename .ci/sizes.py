#!/usr/bin/env python3
"""Lists the source files over 600 lines and the functions over 150 (docs/ARCHITECTURE.md's
limits, issue 44): .ci/sizes.py [FOLDER...], src by default. A function is counted from the line
of its parameter list's closing parenthesis to its closing brace, found by counting braces outside
comments and string and character literals; a lambda or a local class counts with the function
that holds it. Generated tables (src/render/ColormapTables.cpp) are exempt from the file limit."""
import re
import sys
from pathlib import Path

FILE_LIMIT = 600
FUNC_LIMIT = 150


def strip(text):
    # Removes comments, string and char literals (raw strings too), keeping newlines.
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append('\n' * text.count('\n', i, j))
            i = j
        elif c == 'R' and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == '_')):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c); i += 1; continue
            end = ')' + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + '\n' * text.count('\n', i, j))
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isdigit())):
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


HEAD_NOT_FUNC = re.compile(r'\b(namespace|class|struct|union|enum)\b[^()]*$|=\s*$|\[\s*\]\s*$|^\s*extern\s')


def functions(text):
    s = strip(text)
    result = []
    depth = 0
    stack = []  # (is_function, start_line, name)
    last_stmt = 0
    in_func = 0
    line = 1
    pending = None  # a brace initialiser in a constructor's list: the body follows
    for i, c in enumerate(s):
        if c == '\n':
            line += 1
        elif c == '{':
            head = s[last_stmt:i]
            flat = ' '.join(head.split())
            is_func = False
            name = ''
            if not in_func and ')' in flat and not HEAD_NOT_FUNC.search(flat):
                if not re.search(r'\b(if|for|while|switch|catch|do)\s*\(', flat) and not flat.rstrip().endswith(('=', ',', '(', 'return')):
                    m = re.search(r'([~\w:<>]+)\s*\(', flat)
                    name = m.group(1) if m else flat[:40]
                    is_func = True
            start = line - head[head.rfind(')') if ')' in head else len(head):].count('\n')
            if pending and not in_func:
                is_func, start, name = True, pending[0], pending[1]
            pending = None
            stack.append((is_func, start, name))
            if is_func:
                in_func += 1
            last_stmt = i + 1
        elif c == '}':
            if stack:
                is_func, start, name = stack.pop()
                if is_func:
                    in_func -= 1
                    rest = s[i + 1:i + 200].lstrip()
                    if rest[:1] in (',', '{') and not in_func:
                        pending = (start, name)
                    else:
                        result.append((name, start, line - start + 1))
            last_stmt = i + 1
        elif c == ';':
            last_stmt = i + 1
    return result


def main():
    roots = sys.argv[1:] or ['src']
    big_files, big_funcs = [], []
    for root in roots:
        for path in sorted(Path(root).rglob('*')):
            if path.suffix not in ('.cpp', '.h', '.inc') or not path.is_file():
                continue
            text = path.read_text(errors='replace')
            lines = text.count('\n')
            if lines > FILE_LIMIT:
                big_files.append((lines, str(path)))
            for name, start, length in functions(text):
                if length > FUNC_LIMIT:
                    big_funcs.append((length, f'{path}:{start}', name))
    print(f'files over {FILE_LIMIT} lines: {len(big_files)}')
    for lines, path in sorted(big_files, reverse=True):
        print(f'  {lines:5d} {path}')
    print(f'functions over {FUNC_LIMIT} lines: {len(big_funcs)}')
    for length, where, name in sorted(big_funcs, reverse=True):
        print(f'  {length:5d} {where} {name}')


if __name__ == '__main__':
    main()
