"""Mail (.eml, .mbox) → Documents with the standard library's ``email`` and ``mailbox``.

One document per message: an .eml file is one message (source: the file), an .mbox holds
many (source ``box.mbox#N``, N from 1, like JSON records). The title is the subject; the
text starts with a From/Date/Subject header so a passage can be cited with who wrote it
and when. The body is the first text/plain part, else the text/html part as text.
"""

from __future__ import annotations

import email
import email.policy
import mailbox
import os
import tempfile
from email.message import EmailMessage
from pathlib import Path

from drrag_cli.types import Document


def load_mail(path: Path, data: bytes, skip: type[Exception]) -> list[Document]:
    if path.suffix.lower() == ".eml":
        msg = email.message_from_bytes(data, policy=email.policy.default)
        if not (msg["From"] or msg["Subject"] or msg["Date"]):
            raise skip("not an e-mail message (no From, Subject or Date header); save it as .eml from the mail client")
        return [_document(str(path), msg, path.stem)]
    docs = [_document(f"{path}#{n}", msg, f"{path.stem} #{n}") for n, msg in enumerate(_mbox_messages(data), 1)]
    if not docs:
        raise skip("no messages in this mbox (each must start with a 'From ' line); export it again as mbox")
    return docs


def _mbox_messages(data: bytes) -> list[EmailMessage]:
    """mailbox.mbox reads a path, so the bytes already read go through a private temp file."""
    fd, name = tempfile.mkstemp(suffix=".mbox")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        box = mailbox.mbox(name, factory=None, create=False)
        try:
            return [email.message_from_bytes(m.as_bytes(), policy=email.policy.default) for m in box]
        finally:
            box.close()
    finally:
        os.unlink(name)


def _document(source: str, msg: EmailMessage, fallback: str) -> Document:
    subject = " ".join(str(msg["Subject"] or "").split()) or fallback
    header = [f"{name}: {' '.join(str(msg[name]).split())}" for name in ("From", "Date", "Subject") if msg[name]]
    return Document(source, subject[:200], "\n".join(header) + "\n\n" + _body(msg), first_line=None)


def _body(msg: EmailMessage) -> str:
    from drrag_cli.ingest.html_text import html_text

    part = msg.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        text = part.get_content()
    except (LookupError, ValueError):  # an unknown charset or a broken transfer encoding
        text = part.get_payload(decode=True).decode("utf-8", errors="replace")
    if part.get_content_subtype() == "html":
        text = html_text(text)[1]
    return text
