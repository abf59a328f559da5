#!/usr/bin/env python3
"""Turns the report mails of one resolution into pages a browser opens alone.

    python3 tests/browser/pages_from_mail.py MAIL_DIR OUT_DIR

MAIL_DIR holds the `.eml` files `adjutant demo` sent. The last resolution's
report mails (Message-ID `<campaign>.r<k>.result.<reader>@...`) are read with
Python's own mail parser, not adjutant's: for each reader the HTML part is
written as `<recipient>.html`, with every `cid:` reference pointed at the
inline part's bytes written beside it, as a mail client would show it.
"""

import email
import email.policy
import pathlib
import re
import sys


def result_mails(mail_dir):
    """(k, path) of every report mail, by the resolution number in its name."""
    found = []
    for path in mail_dir.glob("*.eml"):
        m = re.search(r"\.r(\d+)\.result\.", path.name)
        if m:
            found.append((int(m.group(1)), path))
    return found


def main():
    mail_dir, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    mails = result_mails(mail_dir)
    if not mails:
        sys.exit(f"no report mail in {mail_dir}")
    last = max(k for k, _ in mails)
    for _, path in sorted(p for p in mails if p[0] == last):
        message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        html_part = message.get_body(preferencelist=("html",))
        if html_part is None:
            sys.exit(f"{path.name}: no HTML part")
        html = html_part.get_content()
        inline = 0
        for part in message.walk():
            cid = part.get("Content-ID")
            if not cid:
                continue
            cid = cid.strip().strip("<>")
            name = part.get_filename() or f"{cid}.bin"
            (out / name).write_bytes(part.get_content())
            html = html.replace(f"cid:{cid}", name)
            inline += 1
        if inline == 0:
            sys.exit(f"{path.name}: no inline part (the map should be one)")
        reader = message["To"].addresses[0].username
        (out / f"{reader}.html").write_text(html, encoding="utf-8")
        print(out / f"{reader}.html")


if __name__ == "__main__":
    main()
