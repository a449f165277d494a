#!/usr/bin/env python3
"""Checks a report's HTML with Python's own HTML parser: elements balanced, every #anchor
defined, no external resource, and writes each inline SVG to DIR/chart-N.svg.
usage: check-html.py REPORT.html DIR  (prints a JSON summary: ids, charts, tables, text)"""
import html.parser, json, re, sys

VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}


class Report(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.hrefs, self.external = [], set(), [], []
        self.tables, self.rows, self.text, self.svg_depth = 0, [], [], 0
        self.in_cell, self.row = False, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag not in VOID:
            self.stack.append(tag)
        if 'id' in a and self.svg_depth == 0:
            assert a['id'] not in self.ids, 'duplicate id ' + a['id']
            self.ids.add(a['id'])
        for k in ('href', 'src', 'xlink:href'):
            v = a.get(k)
            if v is None:
                continue
            if v.startswith('#'):
                self.hrefs.append(v[1:])
            elif not v.startswith('data:'):
                self.external.append(v)
        if tag in ('script', 'link', 'iframe', 'object'):
            self.external.append(tag)
        if tag == 'svg':
            self.svg_depth += 1
        if tag == 'table':
            self.tables += 1
        if tag == 'tr':
            self.row = []
        if tag in ('td', 'th'):
            self.in_cell = True
            self.row.append('')

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, 'unbalanced </%s> in %s' % (tag, self.stack[-4:])
        self.stack.pop()
        if tag == 'svg':
            self.svg_depth -= 1
        if tag in ('td', 'th'):
            self.in_cell = False
        if tag == 'tr':
            self.rows.append(self.row)

    def handle_data(self, data):
        if self.svg_depth == 0:
            self.text.append(data)
        if self.in_cell:
            self.row[-1] += data


path, out = sys.argv[1], sys.argv[2]
doc = open(path, encoding='utf-8').read()
assert doc.startswith('<!DOCTYPE html>'), 'no doctype'
p = Report()
p.feed(doc)
p.close()
assert not p.stack, 'unclosed: %s' % p.stack
broken = [h for h in p.hrefs if h not in p.ids]
assert not broken, 'broken anchors: %s' % broken
assert not p.external, 'external resources: %s' % p.external[:5]
svgs = re.findall(r'<svg\b.*?</svg>', doc, re.S)
for i, s in enumerate(svgs):
    open('%s/chart-%d.svg' % (out, i + 1), 'w', encoding='utf-8').write(s)
print(json.dumps({'ids': sorted(p.ids), 'anchors': len(p.hrefs), 'charts': len(svgs), 'tables': p.tables,
                  'rows': p.rows, 'text': ' '.join(' '.join(p.text).split())}))
