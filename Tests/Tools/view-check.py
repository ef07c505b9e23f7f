#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks `tapwire view` pages with Python's html.parser, independently of the Swift code.

For each page named on the command line: every start tag closed in order (void elements
aside); one Content-Security-Policy meta that forbids network loads; no src=, href=,
action=, srcset= or style url() to anything but a `#` anchor or a data: URL; no <link>,
<iframe>, <object>, <embed>, <img> or <base>; every data-start/data-end a range inside the
input (0 <= start <= end <= the body's data-length); exactly data-length bytes (<i>) in #hex.
Prints one line per bad page and exits 1 when there is one; else prints how many were checked.
"""
import re
import sys
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
FORBIDDEN_TAGS = {"link", "iframe", "object", "embed", "img", "base", "frame", "audio", "video", "source"}
URL_ATTRIBUTES = {"src", "href", "action", "srcset", "formaction", "poster", "data", "background"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.problems = []
        self.length = None
        self.ranges = []
        self.hex_depth = None
        self.hex_bytes = 0
        self.csp = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in FORBIDDEN_TAGS:
            self.problems.append(f"<{tag}> present")
        for name, value in attrs:
            if name in URL_ATTRIBUTES and value is not None and not (value.startswith("#") or value.startswith("data:")):
                self.problems.append(f"{name}={value!r} on <{tag}>")
            if name == "style" and value and "url(" in value:
                self.problems.append(f"url() in a style attribute on <{tag}>")
        if tag == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy":
            self.csp.append(a.get("content") or "")
        if tag == "body":
            self.length = int(a.get("data-length", "-1"))
        if "data-start" in a or "data-end" in a:
            try:
                self.ranges.append((int(a["data-start"]), int(a["data-end"]), tag))
            except (KeyError, ValueError):
                self.problems.append(f"bad range attributes on <{tag}>: {a}")
        if tag == "script":
            self.scripts += 1
        if a.get("id") == "hex":
            self.hex_depth = len(self.stack)
        if tag == "i" and self.hex_depth is not None:
            self.hex_bytes += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if self.hex_depth is not None and len(self.stack) == self.hex_depth:
            self.hex_depth = None


def check(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    page = Page()
    page.feed(text)
    page.close()
    problems = page.problems
    if page.stack:
        problems.append(f"unclosed: {page.stack}")
    if not text.startswith("<!DOCTYPE html>"):
        problems.append("no doctype")
    if len(page.csp) != 1 or "default-src 'none'" not in page.csp[0]:
        problems.append(f"Content-Security-Policy: {page.csp}")
    if page.scripts != 1:
        problems.append(f"{page.scripts} scripts")
    if re.search(r"url\(", text) or "@import" in text:
        problems.append("url() or @import in the page")
    if page.length is None or page.length < 0:
        problems.append("no data-length on body")
    else:
        if page.hex_bytes != page.length:
            problems.append(f"{page.hex_bytes} bytes in #hex for {page.length}")
        for start, end, tag in page.ranges:
            if not (0 <= start <= end <= page.length):
                problems.append(f"<{tag}> range {start}-{end} outside 0-{page.length}")
    return problems, len(page.ranges)


def main():
    bad = 0
    fields = 0
    for path in sys.argv[1:]:
        problems, count = check(path)
        fields += count
        if problems:
            bad += 1
            print(f"{path}: " + "; ".join(problems[:10]))
    print(f"checked {len(sys.argv) - 1} pages, {fields} fields, {bad} bad")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
