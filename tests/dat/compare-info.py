#!/usr/bin/env python3
"""compare-info.py EXPECTED INFO.json [--classes rt,be,idle]

Checks `iochart info --json` against an .expected file (see issue-totals.py): total, per-device
and per-class requests and bytes must be equal; classes and devices the file does not list must
have none. --classes names classes that must have requests. Exit 0 when equal, 1 otherwise.
"""
import json
import sys


def main():
    args = sys.argv[1:]
    need = []
    if '--classes' in args:
        i = args.index('--classes')
        need = args[i + 1].split(',')
        del args[i:i + 2]
    expected_path, json_path = args
    with open(json_path) as f:
        info = json.load(f)
    got = {'requests': [sum(d['requests'] for d in info['devices']), sum(d['bytes'] for d in info['devices'])]}
    for d in info['devices']:
        got['device ' + d['dev']] = [d['requests'], d['bytes']]
    for klass, v in info['classes'].items():
        got['class ' + klass] = [v['requests'], v['bytes']]
    want = {}
    with open(expected_path) as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith('#'):
                continue
            key = 'requests' if words[0] == 'requests' else words[0] + ' ' + words[1]
            want[key] = [int(words[-3]), int(words[-1])]
    bad = 0
    for key in sorted(set(got) | set(want)):
        g, w = got.get(key, [0, 0]), want.get(key, [0, 0])
        if g != w:
            print(f'{key}: iochart {g[0]} requests {g[1]} bytes, reference {w[0]} requests {w[1]} bytes')
            bad += 1
    for klass in need:
        if got.get('class ' + klass, [0, 0])[0] == 0:
            print(f'class {klass}: no requests, expected some')
            bad += 1
    if bad == 0:
        print(f'ok: {got["requests"][0]} requests, {got["requests"][1]} bytes, '
              f'{len(info["devices"])} devices, classes equal')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
