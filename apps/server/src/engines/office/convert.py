"""Converts one document to PDF through a running LibreOffice listener (UNO over a local pipe).

usage: python3 convert.py PIPE_NAME INPUT OUTPUT PASSWORD_FILE [IMPORT_FILTER [FILTER_OPTIONS]]
The password (empty for none) is read from a file, never from the command line, which every local
user can read.
Exit codes: 0 done; see the constants below for the others (engines/office.ts reads them).
"""
import os
import sys
import time

import uno
import unohelper
from com.sun.star.beans import PropertyValue
from com.sun.star.task import XInteractionHandler

try:
    import msoffcrypto
    import olefile
    from msoffcrypto.exceptions import InvalidKeyError
except ImportError:  # Debian's python3-msoffcrypto-tool; without it such slides are refused as before
    msoffcrypto = None

CANNOT_CONNECT, NEEDS_PASSWORD, WRONG_PASSWORD, CANNOT_OPEN, EXPORT_FAILED, EMPTY, LISTENER_LOST = 10, 11, 12, 13, 14, 15, 16

PASSWORD = uno.getTypeByName("com.sun.star.task.XInteractionPassword")
ABORT = uno.getTypeByName("com.sun.star.task.XInteractionAbort")

# The PDF export filter for each kind of document LibreOffice may have opened, most specific first.
EXPORT_FILTERS = [
    ("com.sun.star.text.WebDocument", "writer_web_pdf_Export"),
    ("com.sun.star.text.GenericTextDocument", "writer_pdf_Export"),
    ("com.sun.star.sheet.SpreadsheetDocument", "calc_pdf_Export"),
    ("com.sun.star.presentation.PresentationDocument", "impress_pdf_Export"),
    ("com.sun.star.drawing.DrawingDocument", "draw_pdf_Export"),
]

# OOXML files are zips; an encrypted one is an OLE2 container holding this stream instead.
ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")


def props(**values):
    out = []
    for name, value in values.items():
        p = PropertyValue()
        p.Name = name
        p.Value = value
        out.append(p)
    return tuple(out)


class Interactions(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice asks with 'abort', as nobody is there to answer it,
    and notes whether one of them asked for a password."""

    def __init__(self):
        self.password_asked = False

    def handle(self, request):
        # request.getRequest() cannot be read from Python 3.11 (pyuno fails to build the
        # exception it carries), so a password request is known by its continuation.
        continuations = request.getContinuations()
        if any(c.queryInterface(PASSWORD) for c in continuations):
            self.password_asked = True
        for c in continuations:
            if c.queryInterface(ABORT):
                c.select()
                return


def connect(pipe):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    # The listener may still be starting (or restarting after a crash), which takes tens of seconds
    # on a busy machine; the engine's time limit still bounds the whole call.
    deadline = time.monotonic() + 90
    while True:
        try:
            return resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
        except Exception:
            if time.monotonic() > deadline:
                sys.exit(CANNOT_CONNECT)
            time.sleep(0.1)


def refuse(code, desktop):
    """Exits with a refusal only if LibreOffice is still there to have made it: a listener that died
    mid-job makes every call fail, which is not the document's fault."""
    try:
        desktop.getComponents()
    except Exception:
        sys.exit(LISTENER_LOST)
    sys.exit(code)


def is_encrypted_ooxml(path):
    with open(path, "rb") as f:
        head = f.read(1 << 20)
    return head.startswith(b"\xd0\xcf\x11\xe0") and ENCRYPTED_PACKAGE in head


def unlink_root_stream(path, name):
    """Takes the stream `name` out of the root storage of the compound file at `path`, in place: its
    directory entry is unlinked from the root's tree of children (MS-CFB), so no reader finds it."""
    ole = olefile.OleFileIO(path)
    entries, per_sector, none = ole.direntries, ole.sectorsize // 128, olefile.NOSTREAM
    chain, sector = [], ole.first_dir_sector
    while sector < olefile.MAXREGSECT and len(chain) < len(entries):
        chain.append(sector)
        sector = ole.fat[sector]
    ole.close()

    def offset(sid):
        return (chain[sid // per_sector] + 1) * ole.sectorsize + (sid % per_sector) * 128

    target = next((e for e in entries if e and e.name == name and e.entry_type == olefile.STGTY_STREAM), None)
    if target is None:
        return
    # What takes its place: one subtree, or the left one with the right hung under its rightmost node.
    writes = []
    replacement = target.sid_left if target.sid_left != none else target.sid_right
    if target.sid_left != none and target.sid_right != none:
        rightmost = entries[target.sid_left]
        while rightmost.sid_right != none:
            rightmost = entries[rightmost.sid_right]
        writes.append((offset(rightmost.sid) + 0x48, target.sid_right))
    for e in entries:
        for field, at in (("sid_left", 0x44), ("sid_right", 0x48), ("sid_child", 0x4C)):
            if e and getattr(e, field) == target.sid:
                writes.append((offset(e.sid) + at, replacement))
    with open(path, "r+b") as f:
        for at, sid in writes:
            f.seek(at)
            f.write(sid.to_bytes(4, "little"))


def decrypted_slides(source, password):
    """A legacy PowerPoint (.ppt) under RC4 CryptoAPI, which LibreOffice cannot open even with its
    password, decrypted by msoffcrypto-tool beside it (in this job's folder); None for any other
    file, which LibreOffice opens with the password itself."""
    if msoffcrypto is None:
        return None
    with open(source, "rb") as f:
        try:
            office = msoffcrypto.OfficeFile(f)
            if office.format != "ppt97" or not office.is_encrypted():
                return None
        except Exception:
            return None
        plain = os.path.join(os.path.dirname(source), "decrypted.ppt")
        try:
            office.load_key(password=password)
            with open(plain, "wb") as out:
                office.decrypt(out)
            # msoffcrypto leaves the encrypted summary in, and LibreOffice refuses any .ppt holding one.
            unlink_root_stream(plain, "EncryptedSummary")
        except InvalidKeyError:
            sys.exit(WRONG_PASSWORD)
        except Exception as e:
            print(f"decryption failed: {e}", file=sys.stderr)
            sys.exit(CANNOT_OPEN)
    return plain


def main():
    pipe, source, target, password_file = sys.argv[1:5]
    import_filter = sys.argv[5] if len(sys.argv) > 5 else ""
    filter_options = sys.argv[6] if len(sys.argv) > 6 else ""
    with open(password_file, encoding="utf-8") as f:
        password = f.read()
    plain = password and decrypted_slides(source, password)
    if plain:
        source, password = plain, ""
    ctx = connect(pipe)
    desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
    interactions = Interactions()
    load = dict(
        Hidden=True,
        # Never run a document's macros, never refresh its links to other files or the network.
        MacroExecutionMode=0,  # MacroExecMode.NEVER_EXECUTE
        UpdateDocMode=0,  # UpdateDocMode.NO_UPDATE
        InteractionHandler=interactions,
    )
    if import_filter:
        load["FilterName"] = import_filter
    if filter_options:
        load["FilterOptions"] = filter_options
    if password:
        load["Password"] = password
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(source), "_blank", 0, props(**load))
    except Exception as e:
        print(f"load failed: {e}", file=sys.stderr)
        doc = None
    if doc is None:
        if interactions.password_asked:
            refuse(WRONG_PASSWORD if password else NEEDS_PASSWORD, desktop)
        # LibreOffice does not recognise some encryptions at all (it never asks for the password).
        refuse(NEEDS_PASSWORD if not password and is_encrypted_ooxml(source) else CANNOT_OPEN, desktop)
    try:
        export = next((f for service, f in EXPORT_FILTERS if doc.supportsService(service)), None)
        if export is None:
            print("not a document LibreOffice can export", file=sys.stderr)
            refuse(CANNOT_OPEN, desktop)
        # A presentation without slides exports a PDF without pages, which is no PDF at all.
        if export == "impress_pdf_Export" and doc.getDrawPages().getCount() == 0:
            sys.exit(EMPTY)
        try:
            doc.storeToURL(uno.systemPathToFileUrl(target), props(FilterName=export))
        except Exception as e:
            print(f"export failed: {e}", file=sys.stderr)
            refuse(EXPORT_FAILED, desktop)
    finally:
        try:
            doc.close(True)
        except Exception:
            pass


main()
