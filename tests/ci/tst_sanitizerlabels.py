#!/usr/bin/env python3
"""tst_sanitizerlabels: what the sanitizer presets cover (docs/ARCHITECTURE.md, Tests; .ci/run). The
tests of the code that meets untrusted input and threads are labelled `sanitize`
(tests/CMakeLists.txt): the readers, the config parsing, the check, the command line, the compute
scheduler, the window's threaded paths, and every test the thread sanitizer runs. Those of them long
under ASan are labelled `long` too and run by hand (the asan-labelled preset); CI's asan stage
builds the target posenc_sanitizer_ci_tests and runs the rest (the asan preset), among them the
readers', the configs', the command line's own reading and the threaded paths' tests named here.
The tsan preset builds the tests it runs, the same list in its build and its test preset. A test's
long variant (<test>_long) is labelled long, left out of the release suite and run by release-long.
Each COST list (tests/CMakeLists.txt, POSENC_TEST_COSTS) names tests of the suite, the sanitizer
trees' list tests CI's asan stage runs, and the tree holds its own list's COSTs: a test renamed or
unlabelled would otherwise lose its place at the front of CI's run without a word.
usage: tst_sanitizerlabels.py SOURCE_DIR BINARY_DIR"""
import json
import re
import sys
from pathlib import Path

source, binary = Path(sys.argv[1]), Path(sys.argv[2])
failures = []


def expect(condition, message):
    if not condition:
        failures.append(message)


presets = json.loads((source / 'CMakePresets.json').read_text())
build = {preset['name']: preset for preset in presets['buildPresets']}
test = {preset['name']: preset for preset in presets['testPresets']}
expect(build['asan'].get('targets') == ['posenc_sanitizer_ci_tests'],
       'the asan build preset builds posenc_sanitizer_ci_tests only')
expect(test['asan'].get('filter', {}).get('include', {}).get('label') == '^sanitize$'
       and test['asan'].get('filter', {}).get('exclude', {}).get('label') == '^long$',
       'the asan test preset runs the tests labelled sanitize, not those labelled long')
expect(test.get('asan-labelled', {}).get('filter', {}).get('include', {}).get('label') == '^sanitize$'
       and 'exclude' not in test.get('asan-labelled', {}).get('filter', {}),
       'the asan-labelled test preset runs every test labelled sanitize')
# The long variants (<test>_long, POSENC_LONG_VARIANTS): the release suite leaves them out and
# release-long runs them, by hand before a release.
expect(test['release'].get('filter', {}).get('exclude', {}).get('name') == '_long$'
       and 'include' not in test['release'].get('filter', {})
       and 'label' not in test['release'].get('filter', {}).get('exclude', {}),
       'the release test preset runs every test but the long variants (_long)')
expect(test.get('release-long', {}).get('filter', {}).get('include', {}).get('name') == '_long$',
       'the release-long test preset runs the long variants (_long)')
tsan_tests = []
for name in ('tsan', 'tsan-window'):
    listed = re.fullmatch(r'\^\((.*)\)\$', test[name]['filter']['include']['name']).group(1).split('|')
    expect(sorted(build[name]['targets']) == sorted(listed),
           'the %s preset builds the tests it runs: %s against %s' % (name, build[name]['targets'], listed))
    tsan_tests += listed

# The tests and their labels as ctest reads them, from the build tree's CTestTestfile.cmake files
# (read, not listed by ctest: ctest -N would write the log of the ctest running this test).
labels = {}
costs = {}
folders = {}
for testfile in binary.rglob('CTestTestfile.cmake'):
    for line in testfile.read_text().splitlines():
        added = re.match(r'add_test\(\[=\[(.+?)\]=\]', line)
        if added:
            labels.setdefault(added.group(1), [])
            folders[added.group(1)] = testfile.parent.relative_to(binary).as_posix()
        properties = re.match(r'set_tests_properties\(\[=\[(.+?)\]=\] PROPERTIES (.*)', line)
        if properties:
            found = re.search(r' LABELS "([^"]*)"', properties.group(2))
            if found:
                labels.setdefault(properties.group(1), []).extend(found.group(1).split(';'))
            found = re.search(r' COST "([^"]*)"', properties.group(2))
            if found:
                costs[properties.group(1)] = found.group(1)
sanitized = {name for name, names in labels.items() if 'sanitize' in names}
# What CI's asan stage runs: labelled sanitize, not long.
in_ci = {name for name in sanitized if 'long' not in labels[name]}

# Named here so that a test's leaving the label is a decision seen in review, not a side effect.
required = set(tsan_tests) | {
    # The readers of hostile files and the config parsing.
    'tst_npyreaderrefusals', 'tst_npyreadervalues', 'tst_npzreader', 'tst_safetensorsrefusals',
    'tst_safetensorsvalues', 'tst_csvreader', 'tst_matrixfile', 'tst_sessionfile', 'tst_preset',
    'tst_modelconfig', 'tst_configkeys', 'tst_heldinconfigs', 'tst_configmanytypes', 'tst_modellayers',
    # The command line, the real executable in a process.
    'tst_cli', 'tst_clicheck', 'tst_cliconfigcheck', 'tst_cligrammar', 'tst_clijson', 'tst_cliapply',
    # Every figure's data for hostile parameters and views.
    'tst_finitetables', 'tst_finitefigures', 'tst_figureviewsaway',
    # The compute scheduler and the window's threaded paths.
    'tst_computescheduler', 'tst_backgroundwork', 'tst_mainwindow', 'tst_checkwindow', 'tst_scaleinteraction',
    'tst_sessioncontroller', 'tst_settings', 'tst_fileopening'}
for name in sorted(required - set(tsan_tests)):
    expect(name in in_ci, '%s is labelled sanitize and not long: CI\'s asan stage runs it' % name)
# And every check of a table or a rotation, every reader's and config's test by its name: labelled,
# run under the sanitizers by hand where long (ctest --preset asan-labelled).
required |= {name for name in labels if re.match(r'tst_(tablecheck|applycheck|cliconfig|clicheck|npy|npz|'
                                                 r'safetensors|csvreader|config|model)', name)}
for name in sorted(required):
    expect(name in labels, '%s is a test of the suite' % name)
    expect(name in sanitized, '%s is labelled sanitize' % name)
# Every reader's and config's own test is short enough for CI's asan stage.
for name in sorted(labels):
    if re.match(r'tst_(npy|npz|safetensors|csvreader|config|model)', name):
        expect(name in in_ci, '%s, a reader\'s or a config\'s, runs in CI\'s asan stage' % name)
# A long variant is its test's executable run again, labelled long, and sanitize with its test.
for name in sorted(labels):
    if name.endswith('_long'):
        base = name[:-len('_long')]
        expect(base in labels, '%s is the long variant of a test of the suite' % name)
        expect('long' in labels[name], '%s is labelled long' % name)
        expect(('sanitize' in labels[name]) == ('sanitize' in labels.get(base, [])),
               '%s is labelled sanitize as %s is' % (name, base))
# The label is the suite's larger part: the drawing's tests are what it leaves out.
expect(len(sanitized) * 3 >= len(labels) * 2, '%d of %d tests labelled sanitize' % (len(sanitized), len(labels)))

# Every name of the long list is a test of the suite labelled sanitize and long: a name misspelt
# there would leave its test in CI's asan stage without a word.
cmake_lists = (source / 'tests/CMakeLists.txt').read_text()
long_block = re.search(r'set\(POSENC_SANITIZER_LONG\n(.*?)\)', cmake_lists, re.S)
expect(long_block is not None, 'tests/CMakeLists.txt sets POSENC_SANITIZER_LONG')
for name in re.findall(r'tst_\w+', long_block.group(1) if long_block else ''):
    expect(name in sanitized and name not in in_ci, '%s, listed long, is labelled sanitize and long' % name)

# The tests that run the real executable (its path, POSENC_EXECUTABLE, named in their file or a
# header of their folder they include), a process a case, 8 to 14 times their release time under
# ASan: CI's asan stage runs those POSENC_SANITIZER_CI_CLI names and the others are long, so that a
# corpus added joins the run by hand, not CI's; a test of the folder that runs no process stays.
def runs_executable(path, seen=None):
    seen = set() if seen is None else seen
    if path in seen or not path.is_file():
        return False
    seen.add(path)
    text = path.read_text()
    return 'POSENC_EXECUTABLE' in text or any(
        runs_executable(path.parent / header, seen) for header in re.findall(r'^#include "([^/"]+\.h)"', text, re.M))


ci_cli = re.search(r'set\(POSENC_SANITIZER_CI_CLI (.*?)\)', cmake_lists, re.S)
expect(ci_cli is not None, 'tests/CMakeLists.txt sets POSENC_SANITIZER_CI_CLI')
ci_cli = set(re.findall(r'tst_\w+', ci_cli.group(1) if ci_cli else ''))
runs = {name for name in sanitized if runs_executable(source / folders.get(name, '') / (name + '.cpp'))}
for name in sorted(ci_cli):
    expect(name in runs and name in in_ci,
           '%s, named for CI\'s asan stage, runs the executable and is labelled sanitize and not long' % name)
for name in sorted(runs - ci_cli):
    expect(name not in in_ci, '%s runs the executable and is not named for CI\'s asan stage: it is long' % name)
expect(len(runs - ci_cli) >= 10, 'the tests that run the executable were found: %d' % len(runs))
expect(any(folders.get(name) == 'tests/cli' and name not in runs for name in in_ci),
       'a test of tests/cli that runs no process stays in CI\'s asan stage')

# The tests given the core precompiled header by name (POSENC_CORE_PCH_TESTS) are tests of the suite.
core_pch = re.search(r'set\(POSENC_CORE_PCH_TESTS\n(.*?)\)', cmake_lists, re.S)
for name in re.findall(r'tst_\w+', core_pch.group(1) if core_pch else ''):
    expect(name in labels, '%s, given the core precompiled header, is a test of the suite' % name)

# The COST lists: the sanitizer trees' first, the release tree's second (tests/CMakeLists.txt).
cost_lists = [dict(re.findall(r'(tst_\w+) (\d+)', block)) for block in
              re.findall(r'set\(POSENC_TEST_COSTS\n(.*?)\)', (source / 'tests/CMakeLists.txt').read_text(), re.S)]
expect(len(cost_lists) == 2, 'tests/CMakeLists.txt sets POSENC_TEST_COSTS twice, sanitizer and release')
if len(cost_lists) == 2:
    for name in sorted(set(cost_lists[0]) | set(cost_lists[1])):
        expect(name in labels, '%s, given a COST, is a test of the suite' % name)
    for name in sorted(cost_lists[0]):
        expect(name in in_ci, '%s, given a sanitizer COST, is labelled sanitize and not long' % name)
    sanitizer_tree = (binary / 'CMakeCache.txt').is_file() and re.search(
        r'^POSENC_SANITIZE:\w+=.+$', (binary / 'CMakeCache.txt').read_text(), re.M)
    own = cost_lists[0] if sanitizer_tree else cost_lists[1]
    expect(costs == own, 'the tree holds its own COST list: %s against %s' % (costs, own))

for failure in failures:
    print('FAIL', failure)
print('%d tests, %d labelled sanitize, %d of them in CI, %d required' % (len(labels), len(sanitized), len(in_ci),
                                                                         len(required)))
sys.exit(1 if failures else 0)
