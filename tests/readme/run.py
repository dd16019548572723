#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""README is tested: run the blocks of a page that are marked runnable.

A fenced block right after a comment line `<!-- test [exit=N] [file=NAME]
[needs=CMD,...] [skip=REASON] -->` is a test: with file=NAME its text is
written to NAME, otherwise it runs as one `bash -e` script and must exit
N (default 0).  A fenced block after `<!-- output -->` is what the
previous test prints (stdout and stderr together), compared after
normalising pids, addresses and times; a line `...` in it stands for any
number of lines.  Every block of a page runs in order in one scratch
directory that holds links to the checkout's top-level entries, with
HOME in the scratch directory too, so a block cannot write into the
checkout except through build directories.

usage: run.py PAGE.md        run PAGE's tests
       run.py --pages        README.md and every doc/*.md it links to
"""
import os, re, shutil, subprocess, sys, tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = re.compile(r'^<!--\s*(test|output)\b(.*?)-->\s*$')


def blocks(path):
    """(line, kind, options, text) for each marked fenced block."""
    lines = open(path).read().split('\n')
    out, pending, i = [], None, 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if m:
            pending = (i + 1, m.group(1), options(m.group(2)))
        elif lines[i].startswith('```'):
            j = i + 1
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            if pending:
                out.append(pending + ('\n'.join(lines[i + 1:j]) + '\n',))
                pending = None
            i = j
        elif lines[i].strip() and pending:
            sys.exit(f'{path}:{pending[0]}: a marker must come right '
                     'before its fenced block')
        i += 1
    return out


def options(s):
    opts = {}
    for m in re.finditer(r'(\w+)=("([^"]*)"|\S+)|(\w+)', s):
        if m.group(4):
            opts[m.group(4)] = ''
        else:
            opts[m.group(1)] = m.group(3) if m.group(3) is not None else m.group(2)
    return opts


def normalise(text):
    text = re.sub(r'0x[0-9a-f]{6,}', '0xADDR', text)
    text = re.sub(r'\b\d+\.\d+\b', 'T', text)          # times, seconds
    text = re.sub(r'\[pid +\d+\]|^\d+ ', 'PID ', text, flags=re.M)
    return [l.rstrip() for l in text.rstrip('\n').split('\n')]


def matches(want, got):
    """want's lines in got, in order; '...' matches any run of lines."""
    if not want:
        return not got
    if want[0] == '...':
        return any(matches(want[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and want[0] == got[0] and matches(want[1:], got[1:])


def scratch():
    d = tempfile.mkdtemp(prefix='sysgate-readme.')
    for b in ('build-riscv64', 'build-aarch64'):   # cross builds are kept
        os.makedirs(os.path.join(TOP, b), exist_ok=True)
    for e in os.listdir(TOP):
        if e != '.git':
            os.symlink(os.path.join(TOP, e), os.path.join(d, e))
    os.mkdir(os.path.join(d, 'home'))
    return d


def run_page(page):
    path = os.path.join(TOP, page)
    tests = blocks(path)
    if not any(b[1] == 'test' for b in tests):
        print(f'{page}: no runnable block')
        return 77
    d = scratch()
    env = dict(os.environ, HOME=os.path.join(d, 'home'))
    # the user's view, not the test runner's: make would take BUILD or
    # ARCH from the environment (a cross build into build/)
    for v in ('SYSGATE_CACHE', 'BUILD', 'ARCH', 'RUN', 'OBJDUMP', 'TOP',
              'MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'CHECK_ARGS'):
        env.pop(v, None)
    bad, ran, last, skipped = 0, 0, None, []
    try:
        for line, kind, opts, text in tests:
            where = f'{page}:{line}'
            if kind == 'output':
                if last is None:
                    print(f'FAIL {where}: output with no test before it')
                    bad += 1
                elif last is not False and not matches(normalise(text), normalise(last)):
                    print(f'FAIL {where}: output differs; got:\n{last}')
                    bad += 1
                continue
            last = False
            missing = [c for c in opts.get('needs', '').split(',')
                       if c and not shutil.which(c)]
            if 'skip' in opts or missing:
                why = opts.get('skip') or 'needs ' + ', '.join(missing)
                print(f'SKIP {where}: {why}')
                skipped.append(f'{where}: {why}')
                continue
            if 'file' in opts:
                with open(os.path.join(d, opts['file']), 'w') as f:
                    f.write(text)
                continue
            p = subprocess.run(['bash', '-e', '-o', 'pipefail', '-c', text],
                               cwd=d, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            last = p.stdout.decode(errors='replace')
            want = int(opts.get('exit', 0))
            ran += 1
            if p.returncode != want:
                print(f'FAIL {where}: exit {p.returncode}, want {want}; output:\n{last[-3000:]}')
                bad += 1
            else:
                print(f'ok   {where}')
    finally:
        shutil.rmtree(d, ignore_errors=True)
    print(f'{page}: {ran} blocks ran, {bad} failed, {len(skipped)} skipped')
    if not ran and not bad:
        print('; '.join(skipped))      # the runner shows the last line
    return 1 if bad else 0 if ran else 77


def pages():
    out = ['README.md']
    for m in re.finditer(r'\]\((doc/[\w.-]+\.md)\)', open(os.path.join(TOP, 'README.md')).read()):
        if m.group(1) not in out:
            out.append(m.group(1))
    # pages with nothing to run are not tests
    return [p for p in out if any(b[1] == 'test' for b in blocks(os.path.join(TOP, p)))]


if __name__ == '__main__':
    if sys.argv[1:] == ['--pages']:
        print('\n'.join(pages()))
    elif len(sys.argv) == 2:
        sys.exit(run_page(sys.argv[1]))
    else:
        sys.exit(__doc__)
