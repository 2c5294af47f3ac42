"""Text from scenarios and results made safe for a terminal.

A flow or link name, a note or a path is data: printed raw, an escape sequence in it
(`"\\u001b]0;pwned\\u0007"`) would retitle the window, move the cursor or hide text, and a
bidirectional override would reorder what the reader sees. Every character that is not
printable (C0 and C1 controls, DEL, format characters such as U+202E) is shown as its Python
escape instead (`\\x1b`, `\\u202e`); ordinary text, spaces and non-ASCII letters are unchanged.
"""


def visible(text: str) -> str:
    """``text`` with every non-printable character written as its escape."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)
