"""The client corpus: one builder per case of cases.yaml.

Each builder writes the mail one client writes when a player answers the
judge's mail (``r.judged``) with orders: that client's MIME structure,
charset, transfer encoding, headers, quoting and footers, as public
collections of real client mails show them. The texts are our own; the
quoted text is the judge's real mail from the game the test plays.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.mail.clients import mime
from tests.mail.clients.mime import binary, message, multipart, text, word
from tests.mail.clients.reply import (
    EN_DAYS,
    EN_MONTHS,
    Builder,
    Reply,
    html_divs,
    html_lines,
    local,
    prefixed,
    rewrapped,
    twelve_hour,
    wrapped_prefix,
)

CASES: dict[str, Builder] = {}


def case(name: str) -> Callable[[Builder], Builder]:
    """Register a builder under its case's name."""
    def register(fn: Builder) -> Builder:
        CASES[name] = fn
        return fn
    return register


def body(r: Reply, *orders: str) -> str:
    """The SIGNON line, then the orders as typed."""
    return "\n".join([r.player.signon, *orders])


def html_body(r: Reply, *orders: str, tag: str = "div") -> str:
    return "\n".join(f"<{tag}>{mime.html_escape(x)}</{tag}>" for x in (r.player.signon, *orders))


def en_long(r: Reply, hours: int = 0) -> str:
    """``Sunday, March 1, 2026 1:00 PM`` (Outlook's Sent line, en-US)."""
    w = local(r.when, hours)
    return f"{EN_DAYS[w.weekday()]}, {EN_MONTHS[w.month - 1]} {w.day}, {w.year} {twelve_hour(w)}"


def gmail_attr(r: Reply, hours: int = 0) -> str:
    """``On Sun, Mar 1, 2026 at 1:00 PM <judge@...> wrote:``"""
    w = local(r.when, hours)
    return (f"On {EN_DAYS[w.weekday()][:3]}, {EN_MONTHS[w.month - 1][:3]} {w.day}, {w.year} "
            f"at {twelve_hour(w)} <{r.judged.sender}> wrote:")


GMAIL_QUOTE_STYLE = ("margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);"
                     "padding-left:1ex")


def gmail_html(r: Reply, own: str, attribution: str) -> str:
    return (f'<div dir="ltr">{own}</div><br><div class="gmail_quote"><div dir="ltr" '
            f'class="gmail_attr">{mime.html_escape(attribution)}<br></div>'
            f'<blockquote class="gmail_quote" style="{GMAIL_QUOTE_STYLE}">'
            f"{html_lines(r.judged.text)}</blockquote></div>\n")


# --------------------------------------------------------------------------- Gmail


@case("gmail-web")
def gmail_web(r: Reply) -> bytes:
    orders = ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao")
    attribution = gmail_attr(r, 1)
    plain = (f"{body(r, *orders)}\n\nThanks,\nMarie\n\n{attribution}\n\n"
             f"{prefixed(r.judged.text)}\n")
    html = gmail_html(r, html_body(r, *orders) + "<div><br></div><div>Thanks,</div>"
                      "<div>Marie</div>", attribution)
    root = multipart("alternative", "000000000000a1b2c3d4e5f60718",
                     text(plain, cte="quoted-printable"),
                     text(html, "html", cte="quoted-printable"))
    return message(r.headers(), root)


@case("gmail-android-wrapped")
def gmail_android(r: Reply) -> bytes:
    """Gmail for Android breaks a quoted line longer than 76 columns and puts
    the rest on a line of its own with no ``>``."""
    orders = ("A Con - Bul", "A Smy - Arm", "F Ank - Bla")
    w = local(r.when, 3)
    attribution = (f"On {EN_DAYS[w.weekday()][:3]}, {w.day} {EN_MONTHS[w.month - 1][:3]} "
                   f"{w.year}, {w.hour:02d}:{w.minute:02d} , <{r.judged.sender}> wrote:")
    plain = f"{body(r, *orders)}\n\n{attribution}\n\n{wrapped_prefix(r.judged.text)}\n"
    html = gmail_html(r, "<br>".join((r.player.signon, *orders)), attribution)
    root = multipart("alternative", "0000000000004f5e6d7c8b9a0112",
                     text(plain), text(html, "html", cte="quoted-printable"))
    return message(r.headers(), root)


@case("gmail-indent-more-html")
def gmail_indent(r: Reply) -> bytes:
    """The HTML part alone: the orders under Gmail's "indent more" (a
    ``<blockquote>`` with a 40px margin and no border), the judge's mail
    under Gmail's quote block."""
    orders = ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den")
    attribution = gmail_attr(r, 1)
    own = (f"<div>{r.player.signon}</div><blockquote style=\"margin:0 0 0 40px;border:none;"
           f"padding:0px\">{''.join(f'<div>{o}</div>' for o in orders)}</blockquote>"
           "<div><br></div><div>Danke!</div>")
    return message(r.headers(), text(gmail_html(r, own, attribution), "html",
                                      cte="quoted-printable"))


# --------------------------------------------------------------------------- Outlook

OUTLOOK_HEAD = (
    '<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:'
    'office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns:m="http://schemas.microsoft'
    '.com/office/2004/12/omml" xmlns="http://www.w3.org/TR/REC-html40"><head><meta http-equiv='
    '"Content-Type" content="text/html; charset={charset}"><meta name="Generator" content='
    '"Microsoft Word 15 (filtered medium)"><style><!--\n/* Font Definitions */\n@font-face\n'
    '\t{{font-family:"Cambria Math";\n\tpanose-1:2 4 5 3 5 4 6 3 2 4;}}\n@font-face\n\t{{font-'
    'family:Calibri;\n\tpanose-1:2 15 5 2 2 2 4 3 2 4;}}\n/* Style Definitions */\np.MsoNormal,'
    ' li.MsoNormal, div.MsoNormal\n\t{{margin:0cm;\n\tfont-size:11.0pt;\n\tfont-family:"Calibri"'
    ',sans-serif;}}\nspan.EmailStyle19\n\t{{mso-style-type:personal-reply;\n\tfont-family:'
    '"Calibri",sans-serif;\n\tcolor:windowtext;}}\n.MsoChpDefault\n\t{{mso-style-type:export-'
    'only;\n\tfont-size:10.0pt;}}\n@page WordSection1\n\t{{size:612.0pt 792.0pt;\n\tmargin:72.0pt'
    ' 72.0pt 72.0pt 72.0pt;}}\ndiv.WordSection1\n\t{{page:WordSection1;}}\n--></style><!--[if gte'
    ' mso 9]><xml>\n<o:shapedefaults v:ext="edit" spidmax="1026" />\n</xml><![endif]--></head>'
    '<body lang="{lang}" link="#0563C1" vlink="#954F72" style="word-wrap:break-word"><div class='
    '"WordSection1">\n'
)


def mso(line: str) -> str:
    """One paragraph of Word's HTML (an empty one keeps its height with &nbsp;)."""
    content = line if line.strip() else "&nbsp;"
    return f'<p class="MsoNormal">{content}<o:p></o:p></p>\n'


def outlook_html(own: list[str], header: list[tuple[str, str]], quoted: str,
                 charset: str = "utf-8", lang: str = "EN-US",
                 below: list[str] | None = None) -> str:
    """Word's HTML of an Outlook reply: the writer's paragraphs (already
    HTML), the header block under a rule, the original unquoted below (or
    ``below``: the paragraphs under the header block, already HTML)."""
    head = "<br>\n".join(f"<b>{k}</b> {mime.html_escape(v)}" for k, v in header)
    paragraphs = below if below is not None else [
        mime.html_escape(x).replace("  ", " &nbsp;") for x in quoted.rstrip("\n").split("\n")]
    original = "".join(mso(x) for x in paragraphs)
    return (OUTLOOK_HEAD.format(charset=charset, lang=lang)
            + "".join(mso(x) for x in own) + mso("")
            + '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm">'
            + f'<p class="MsoNormal">{head}<o:p></o:p></p></div>\n' + mso("")
            + original + "</div></body></html>\n")


def header_block(labels: tuple[str, str, str, str],
                 values: tuple[str, str, str, str]) -> list[tuple[str, str]]:
    """(label, value) of each line of a client's header block over the original."""
    return list(zip(labels, values, strict=True))


def block_text(header: list[tuple[str, str]]) -> str:
    return "\n".join(f"{k} {v}" for k, v in header)


def en_header(r: Reply, hours: int = 0, sent: str = "Sent") -> list[tuple[str, str]]:
    return header_block(("From:", f"{sent}:", "To:", "Subject:"),
                        (f"{r.judged.sender} <{r.judged.sender}>", en_long(r, hours),
                         r.player.mailbox, r.judged.subject))


PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d4944415478da63f8cfc0f01f0005000201a7e3e4de0000000049454e44ae426082")


@case("outlook-desktop-logo")
def outlook_logo(r: Reply) -> bytes:
    """Outlook 365 on Windows, HTML mail: Word turned every " - " into an en
    dash; the signature's logo is a multipart/related image with a
    Content-ID; the quoted acknowledgement sits unprefixed under the
    From/Sent/To/Subject block."""
    orders = ("A Mos \u2013 Ukr", "A War \u2013 Gal", "F Sev \u2013 Bla", "F StP/sc \u2013 Bot")
    cid = "image001.png@01DCA9F3.6B2E8C40"
    sig = ["Kind regards,", "Ivan Petrov", "Move Coordinator | Hold Fast Logistics",
           f"[cid:{cid}]"]
    header = en_header(r, 0)
    plain = (body(r, *orders) + "\n\n" + "\n".join(sig) + "\n\n" + block_text(header)
             + "\n\n" + r.judged.text)
    own = [mime.html_escape(r.player.signon),
           *(o.replace("\u2013", "&#8211;") for o in orders), "",
           *sig[:3], f'<img width="120" height="40" src="cid:{cid}" alt="Hold Fast Logistics">']
    html = outlook_html(own, header, r.judged.text)
    alt = multipart("alternative", "_000_AM9PR04MB81234567ABCDEFamprd04prod_",
                    text(plain, cte="quoted-printable"),
                    text(html, "html", cte="quoted-printable"))
    logo = binary(PNG_1PX, "image/png", "image001.png", "inline", cid=cid)
    root = multipart("related", "_004_AM9PR04MB81234567ABCDEFamprd04prod_", alt, logo,
                     params=';\n\ttype="multipart/alternative"')
    head = r.headers(subject=f"RE: {r.judged.subject}", mailer=[
        ("Thread-Topic", r.judged.subject), ("Thread-Index", "AQHcqfNrLowAbCdEfGhIjKlMnOpQ=="),
        ("Accept-Language", "en-GB, en-US"), ("Content-Language", "en-GB"),
        ("X-MS-Has-Attach", "yes"), ("X-MS-TNEF-Correlator", "")])
    return message(head, root)


@case("outlook-desktop-cp1252")
def outlook_cp1252(r: Reply) -> bytes:
    """Outlook 2016 with a Western code page: the text part in windows-1252
    quoted-printable (the en dash is =96), the HTML part beside it."""
    orders = ("F Lon \u2013 Nth", "F Edi \u2013 Nwg", "A Lvp \u2013 Yor")
    header = en_header(r, 0)
    plain = (body(r, *orders) + "\n\nRegards,\nJohn\n\n" + block_text(header) + "\n\n"
             + r.judged.text)
    own = [r.player.signon, *(o.replace("\u2013", "&#8211;") for o in orders), "",
           "Regards,", "John"]
    html = outlook_html(own, header, r.judged.text, charset="windows-1252", lang="EN-GB")
    root = multipart("alternative", "_000_LO2P265MB0987FEDCBA654321LO2P265MB0987GBRP_",
                     text(plain, charset="windows-1252", cte="quoted-printable"),
                     text(html, "html", charset="windows-1252", cte="quoted-printable"))
    return message(r.headers(subject=f"RE: {r.judged.subject}"), root)


@case("outlook-plain-disclaimer")
def outlook_plain(r: Reply) -> bytes:
    """Outlook in plain-text mode: the -----Original Message----- block, the
    original unprefixed; the company's sign-off and disclaimer typed in by
    the signature feature with no "-- " line."""
    orders = ("A Ven - Tyr", "A Rom - Apu", "F Nap - Ion")
    sig = ("Kind regards,\nLuca Bianchi\nMove Coordinator | Hold Fast Logistics\n\n"
           "This e-mail and any attachment are confidential and meant for the addressee "
           "only.\nIf it reached you in error, please tell the sender and delete it.")
    header = en_header(r, 0)
    header[0] = ("From:", f"{r.judged.sender} [mailto:{r.judged.sender}]")
    original = "-----Original Message-----\n" + block_text(header) + "\n\n" + r.judged.text
    plain = f"{body(r, *orders)}\n\n{sig}\n\n{original}"
    return message(r.headers(subject=f"RE: {r.judged.subject}"),
                   text(plain, charset="us-ascii", cte="7bit"))


@case("outlook-winmail-dat")
def outlook_winmail(r: Reply) -> bytes:
    """Outlook sending rich text through Exchange: the text part, and the
    rich body again as application/ms-tnef (winmail.dat)."""
    orders = ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb")
    plain = (f"{body(r, *orders)}\n\nBest regards,\nFranz\n\n" + block_text(en_header(r, 1))
             + "\n\n" + r.judged.text)
    tnef = bytes.fromhex("789f3e22") + bytes(range(256)) * 4
    root = multipart("mixed", "_000_VI1PR0801MB2345ABCDEF01VI1PR0801MB2345eurp_",
                     text(plain, charset="us-ascii", cte="quoted-printable"),
                     binary(tnef, "application/ms-tnef", "winmail.dat"))
    return message(r.headers(subject=f"RE: {r.judged.subject}",
                             mailer=[("X-MS-TNEF-Correlator",
                                      "<VI1PR0801MB2345ABCDEF01@VI1PR0801MB2345.eurprd08>")]),
                   root)


@case("outlook-android")
def outlook_android(r: Reply) -> bytes:
    orders = ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den")
    footer = "Get Outlook for Android<https://aka.ms/AAb9ysg>"
    header = header_block(("From:", "Sent:", "To:", "Subject:"),
                          (f"{r.judged.sender} <{r.judged.sender}>",
                           en_long(r, 1).replace(" PM", ":00 PM"), r.player.mailbox,
                           r.judged.subject))
    plain = (f"{body(r, *orders)}\n\n{footer}\n\n________________________________\n"
             + block_text(header) + "\n\n" + r.judged.text)
    html = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
            '</head><body><div dir="auto">' + "<br>".join((r.player.signon, *orders))
            + '</div><div dir="auto"><br></div><div dir="auto">Get <a href="https://aka.ms/'
            'AAb9ysg">Outlook for Android</a></div><hr style="display:inline-block;width:98%" '
            'tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
            + "<br>".join(f"<b>{k}</b> {mime.html_escape(v)}" for k, v in header)
            + "</div><div>" + html_lines(r.judged.text) + "</div></body></html>\n")
    root = multipart("alternative", "_000_DB9PR01MB1234567890ABCDB9PR01MB12345678eurp_",
                     text(plain, cte="quoted-printable"),
                     text(html, "html", cte="quoted-printable"))
    return message(r.headers(subject=f"Re: {r.judged.subject}"), root)


@case("outlook-chinese")
def outlook_chinese(r: Reply) -> bytes:
    """A Chinese-language Outlook: GB2312 in base64, the reply prefix 答复,
    the 发件人/发送时间/收件人/主题 block under a rule, the acknowledgement
    unquoted below it."""
    orders = ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb")
    w = local(r.when, 8)
    header = [("发件人:", f"{r.judged.sender} <{r.judged.sender}>"),
              ("发送时间:", f"{w.year}年{w.month}月{w.day}日 {w.hour}:{w.minute:02d}"),
              ("收件人:", f"王磊 <{r.player.address}>"),
              ("主题:", r.judged.subject)]
    plain = (f"{body(r, *orders)}\n\n谢谢\n王磊\n\n________________________________\n"
             + block_text(header) + "\n\n" + r.judged.text)
    own = [r.player.signon, *orders, "", "谢谢", "王磊"]
    html = outlook_html(own, header, r.judged.text, charset="gb2312", lang="ZH-CN")
    root = multipart("alternative", "_000_HK0PR03MB4567890ABCHK0PR03MB4567apcp_",
                     text(plain, charset="gb2312", cte="base64"),
                     text(html, "html", charset="gb2312", cte="base64"))
    subject = word(f"答复: {r.judged.subject}", "gb2312")
    return message(r.headers(subject=subject, sender=f"{word('王磊', 'gb2312')} "
                             f"<{r.player.address}>",
                             mailer=[("Content-Language", "zh-CN")]), root)


# --------------------------------------------------------------------------- Apple


def apple_attr(r: Reply, hours: int = 1) -> str:
    """``On 1 Mar 2026, at 13:00, judge@... wrote:`` (Apple Mail, en-GB)."""
    w = local(r.when, hours)
    return (f"On {w.day} {EN_MONTHS[w.month - 1][:3]} {w.year}, at {w.hour:02d}:{w.minute:02d}, "
            f"{r.judged.sender} wrote:")


APPLE = [("X-Mailer", "Apple Mail (2.3774.500.171.1.1)")]


@case("apple-mail-plain")
def apple_plain(r: Reply) -> bytes:
    """Apple Mail, plain text: quoted-printable UTF-8, the attribution above
    the "> " quote, a blank line between."""
    orders = ("A Ven - Tyr", "A Rom - Apu", "F Nap - Ion")
    plain = (f"{body(r, *orders)}\n\nCiao,\nGiulia\n\n{apple_attr(r)}\n\n"
             f"{prefixed(r.judged.text)}\n\n")
    return message(r.headers(mailer=APPLE),
                   text(plain, charset="utf-8", cte="quoted-printable"),
                   mime_version="1.0 (Mac OS X Mail 16.0 \\(3774.500.171.1.1\\))")


@case("apple-mail-html")
def apple_html(r: Reply) -> bytes:
    """Apple Mail, rich text: the writer typed two spaces in an order, which
    Apple keeps as a no-break space (Apple-converted-space in the HTML,
    U+00A0 in the text part); the attribution is inside the quote."""
    orders = ("A Par - Bur", "A Mar S A Par\u00a0 - Bur", "F Bre - Mao")
    attribution = apple_attr(r)
    plain = (f"{body(r, *orders)}\n\nAmiti\u00e9s,\nMarie\n\n> {attribution}\n>\n"
             f"{prefixed(r.judged.text)}\n\n")
    space = '<span class="Apple-converted-space">&nbsp;</span>'
    own = "".join(f"<div>{mime.html_escape(o).replace(chr(0xA0), space)}</div>"
                  for o in (r.player.signon, *orders))
    html = ('<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8">'
            '</head><body style="overflow-wrap: break-word; -webkit-nbsp-mode: space; '
            'line-break: after-white-space;">' + own + "<div><br></div><div>Amiti&eacute;s,"
            "</div><div>Marie</div><div><br><blockquote type=\"cite\"><div>" + attribution
            + "</div><br class=\"Apple-interchange-newline\"><div><div>"
            + html_lines(r.judged.text) + "</div></div></blockquote></div><br></body></html>\n")
    root = multipart("alternative", "Apple-Mail=_5C1D2E3F-4A5B-6C7D-8E9F-0A1B2C3D4E5F",
                     text(plain, cte="quoted-printable"),
                     text(html, "html", cte="quoted-printable"))
    return message(r.headers(mailer=APPLE), root,
                   mime_version="1.0 (Mac OS X Mail 16.0 \\(3774.500.171.1.1\\))")


@case("iphone-mail")
def iphone(r: Reply) -> bytes:
    """iPhone Mail: Smart Punctuation made "--" an em dash; "Sent from my
    iPhone"; the attribution and the "> " quote below."""
    orders = ("F Lon - Nth", "F Edi \u2014 Nwg", "A Lvp - Yor")
    w = local(r.when, 0)
    attribution = (f"On {EN_MONTHS[w.month - 1][:3]} {w.day}, {w.year}, at {twelve_hour(w)}, "
                   f"{r.judged.sender} wrote:")
    plain = (f"{body(r, *orders)}\n\nSent from my iPhone\n\n{attribution}\n\n"
             f"{prefixed(r.judged.text)}\n")
    return message(r.headers(mailer=[("X-Mailer", "iPhone Mail (22D72)")]),
                   text(plain, cte="quoted-printable"), mime_version="1.0 (1.0)")


# --------------------------------------------------------------------------- Thunderbird

THUNDERBIRD = [("User-Agent", "Mozilla Thunderbird"), ("Content-Language", "en-GB")]


@case("thunderbird-flowed")
def thunderbird_flowed(r: Reply) -> bytes:
    """Thunderbird: format=flowed with DelSp=yes (every long line, the
    quoted ones too, soft-broken at 72 columns), a "-- " signature."""
    orders = ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den")
    attribution = f"On 01/03/2026 13:00, {r.judged.sender} wrote:"
    plain = (f"{attribution}\n{prefixed(r.judged.text)}\n\n{body(r, *orders)}\n\n"
             "-- \nKarl Weber\nBerlin\n")
    flowed = mime.flow(plain, 72, delsp=True)
    return message(r.headers(mailer=THUNDERBIRD),
                   text(flowed, cte="8bit", params="; format=flowed; delsp=yes"))


@case("thunderbird-openpgp")
def thunderbird_pgp(r: Reply) -> bytes:
    """Thunderbird with OpenPGP: multipart/signed around the body and the
    sender's public key (attached by "attach my public key"), the signature
    as OpenPGP_signature.asc."""
    orders = ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao")
    plain = (f"{body(r, *orders)}\n\nMarie\n\nOn 01/03/2026 13:00, {r.judged.sender} wrote:\n"
             f"{prefixed(r.judged.text)}\n")
    key = ("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxjMEZ8s1ABYJKwYBBAHaRw8BAQdA0xV2mQ"
           "pT6dB4Yw7gUo1kZ3rHn5cFq8sLm2vX9aJeRk3N\n=Xy7a\n-----END PGP PUBLIC KEY BLOCK-----\n")
    sig = ("-----BEGIN PGP SIGNATURE-----\n\nwnsEARYIACMWIQTb3kq1t2Y0mVn8nQ5Xc7ZpW1rE0QUC"
           "Z8s2AAUDAAAAAAAKCRBXc7ZpW1rE0Q\n=a1B2\n-----END PGP SIGNATURE-----\n")
    inner = multipart(
        "mixed", "------------7dK2mQ9vXa3bP0sL8nF4cE1t",
        text(mime.flow(plain, 72), params="; format=flowed", cte="quoted-printable"),
        binary(key.encode(), "application/pgp-keys", "OpenPGP_0x57BDF65A5ACC4D11.asc"),
        params='; protected-headers="v1"')
    signature = mime.Part([
        ("Content-Type", 'application/pgp-signature; name="OpenPGP_signature.asc"'),
        ("Content-Description", "OpenPGP digital signature"),
        ("Content-Disposition", 'attachment; filename="OpenPGP_signature.asc"')], sig.encode())
    root = multipart("signed", "------------Zs4bT1uV8wX0yA2cD5eF7gH9",
                     inner, signature,
                     params='; micalg=pgp-sha256;\n\tprotocol="application/pgp-signature"',
                     preamble="This is an OpenPGP/MIME signed message (RFC 4880 and 3156)")
    return message(r.headers(mailer=THUNDERBIRD), root)


@case("thunderbird-bottom-post")
def thunderbird_bottom(r: Reply) -> bytes:
    """Thunderbird, the orders written under the quote's "Orders are due
    from:" line (bottom-posting into the quoted report), then the rest of the
    quote and a sign-off."""
    orders = ("A Ven - Tyr", "A Rom - Apu", "F Nap - Ion")
    lines = r.judged.lines
    cut = next(i for i, line in enumerate(lines) if line.startswith("Order each")) + 1
    plain = (f"On 01/03/2026 13:00, {r.judged.sender} wrote:\n"
             f"{prefixed(chr(10).join(lines[:cut]))}\n\n{body(r, *orders)}\n\n"
             f"{prefixed(chr(10).join(lines[cut:]))}\n\nCiao\nGiulia\n")
    return message(r.headers(mailer=THUNDERBIRD),
                   text(mime.flow(plain, 72), params="; format=flowed", cte="7bit"))


# --------------------------------------------------------------------------- webmail


@case("yahoo-web")
def yahoo_web(r: Reply) -> bytes:
    """Yahoo Mail (web): the text part is made from the HTML, so the quoted
    report comes unprefixed after an indented attribution."""
    orders = ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb")
    w = local(r.when, 1)
    attribution = (f"On {EN_DAYS[w.weekday()]}, {EN_MONTHS[w.month - 1]} {w.day}, {w.year} at "
                   f"{twelve_hour(w).replace(' ', ':00 ')} GMT+1, {r.judged.sender} "
                   f"<{r.judged.sender}> wrote:")
    plain = (f"{body(r, *orders)}\n\n    {attribution}  \n \n \n"
             + "\n".join(" " + line if line else "" for line in r.judged.lines) + "\n")
    html = ('<html><head></head><body><div class="ydp3f2e1d0cyahoo-style-wrap" style="font-family:'
            'Helvetica Neue, Helvetica, Arial, sans-serif;font-size:13px;">'
            + "".join(f'<div dir="ltr" data-setdir="false">{mime.html_escape(x)}</div>'
                      for x in (r.player.signon, *orders))
            + '</div><div id="yahoo_quoted_1234567890" class="yahoo_quoted"><div style="font-'
            "family:'Helvetica Neue', Helvetica, Arial, sans-serif;font-size:13px;"
            'color:#26282a;">'
            f"<div>{mime.html_escape(attribution)}</div><div><br></div><div><br></div><div>"
            + html_divs(r.judged.text) + "</div></div></div></body></html>\n")
    root = multipart("alternative", "----=_Part_1234567_987654321.1772370000000",
                     text(plain, cte="7bit"), text(html, "html", cte="quoted-printable"))
    return message(r.headers(mailer=[("X-Mailer", "WebService/1.1.25000 YMailNorrin")]), root)


@case("yahoo-classic")
def yahoo_classic(r: Reply) -> bytes:
    """Yahoo Mail's older composer: ----- Original Message ----- with an
    empty Cc: line, the acknowledgement unprefixed."""
    orders = ("F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor")
    w = local(r.when, 0)
    plain = (f"{body(r, *orders)}\n\n\n----- Original Message -----\nFrom: "
             f"\"{r.judged.sender}\" <{r.judged.sender}>\nTo: {r.player.mailbox}\nCc:\n"
             f"Sent: {EN_DAYS[w.weekday()]}, {EN_MONTHS[w.month - 1]} {w.day}, {w.year} "
             f"{twelve_hour(w)}\nSubject: {r.judged.subject}\n\n{r.judged.text}")
    return message(r.headers(mailer=[("X-Mailer", "YahooMailWebService/0.8.203.740")]),
                   text(plain, charset="us-ascii", cte="7bit"))


@case("aol-web")
def aol(r: Reply) -> bytes:
    """AOL Mail: -----Original Message----- with From/To/Sent/Subject (Sent
    third), the report unprefixed; a text and an HTML part."""
    orders = ("A Con - Bul", "A Smy - Arm", "F Ank - Bla")
    w = local(r.when, -5)
    head = (f"-----Original Message-----\nFrom: judge <{r.judged.sender}>\n"
            f"To: {r.player.mailbox}\nSent: {EN_DAYS[w.weekday()][:3]}, "
            f"{EN_MONTHS[w.month - 1][:3]} {w.day}, {w.year} {twelve_hour(w).lower()}\n"
            f"Subject: {r.judged.subject}\n")
    plain = f"{body(r, *orders)}\n\nBob\n\n\n{head}\n\n{r.judged.text}"
    html = ("<font color='black' size='2' face='arial'>" + "<br>\n".join((r.player.signon,
            *orders)) + "<br>\n<br>\nBob<br>\n<br>\n<div style=\"font-family:arial,helvetica;"
            "font-size:10pt;color:black\">" + mime.html_escape(head).replace("\n", "<br>\n")
            + '<br>\n<div id="AOLMsgPart_2_a1b2c3d4"><pre style="font-size: 9pt;"><tt>'
            + mime.html_escape(r.judged.text) + "</tt></pre></div></div></font>\n")
    root = multipart("alternative", "--=_Part_98765_4321.1772370000001",
                     text(plain, charset="us-ascii", cte="7bit"),
                     text(html, "html", charset="us-ascii", cte="7bit"))
    return message(r.headers(sender=f"Bob Turner <{r.player.address}>",
                             mailer=[("X-Mailer", "AOL Webmail 43651-STANDARD")]), root)


@case("windows-mail")
def windows_mail(r: Reply) -> bytes:
    """Mail for Windows 10: "Sent from Mail for Windows 10" after bare
    orders, then a From/Sent/To/Subject block over the unprefixed
    acknowledgement."""
    orders = ("A Con - Bul", "A Smy - Arm", "F Ank - Bla")
    header = header_block(("From:", "Sent:", "To:", "Subject:"),
                          (r.judged.sender, en_long(r, 0), r.player.address, r.judged.subject))
    plain = (f"{body(r, *orders)}\n\nSent from Mail for Windows 10\n\n"
             + block_text(header) + "\n\n" + r.judged.text)
    html = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
            '<meta name="Generator" content="Microsoft Word 15 (filtered medium)"></head>'
            '<body lang="EN-US"><div class="WordSection1">'
            + "".join(mso(x) for x in (r.player.signon, *orders, ""))
            + mso('Sent from <a href="https://go.microsoft.com/fwlink/?LinkId=550986">Mail</a>'
                  " for Windows 10") + mso("")
            + '<div style="mso-element:para-border-div;border:none;border-top:solid #E1E1E1 '
            '1.0pt;padding:3.0pt 0cm 0cm 0cm">' + mso("<br>".join(
                f"<b>{k}</b> {mime.html_escape(v)}" for k, v in header)) + "</div>"
            + "".join(mso(mime.html_escape(x)) for x in r.judged.lines)
            + "</div></body></html>\n")
    root = multipart("alternative", "_D0A1B2C3-D4E5-4F60-8172-93A4B5C6D7E8_",
                     text(plain, cte="quoted-printable"),
                     text(html, "html", cte="quoted-printable"))
    return message(r.headers(), root)


@case("hotmail-old-html")
def hotmail(r: Reply) -> bytes:
    """Hotmail's old composer, HTML part alone: a rule with id stopSpelling,
    then Date/Subject/From/To (From is not first) over the unquoted report."""
    orders = ("A Ven - Tyr", "A Rom - Apu", "F Nap - Ion")
    w = local(r.when, 1)
    head = (f"Date: {EN_DAYS[w.weekday()][:3]}, {w.day} {EN_MONTHS[w.month - 1][:3]} {w.year} "
            f"{w.hour:02d}:{w.minute:02d}:00 +0100<br>Subject: {mime.html_escape(r.judged.subject)}"
            f"<br>From: {r.judged.sender}<br>To: {r.player.address}<br><br>")
    html = ("<html>\n<head>\n<style><!--\n.hmmessage P\n{\nmargin:0px;\npadding:0px\n}\n"
            "body.hmmessage\n{\nfont-size: 12pt;\nfont-family:Calibri\n}\n--></style></head>\n"
            "<body class='hmmessage'><div dir='ltr'>" + "<br>".join((r.player.signon, *orders))
            + "<div><br></div><div>Thanks,</div><div>Alessandro<br><br><div>"
            '<hr id="stopSpelling">' + head + '<div dir="ltr">' + html_lines(r.judged.text)
            + "</div></div></div></div></body>\n</html>\n")
    return message(r.headers(), text(html, "html", charset="iso-8859-1",
                                     cte="quoted-printable"))


# --------------------------------------------------------------------------- gateways, forwards


@case("gateway-disclaimer-part")
def gateway_disclaimer(r: Reply) -> bytes:
    """A company mail gateway appends its disclaimer as a second inline
    text/plain part (the body itself is untouched)."""
    orders = ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den")
    plain = (f"{body(r, *orders)}\n\nGr\u00fc\u00dfe\nKarl\n\n"
             f"Am 01.03.2026 um 13:00 schrieb {r.judged.sender}:\n{prefixed(r.judged.text)}\n")
    disclaimer = ("_____________________________________________________________\n"
                  "Weber & Sohn Spedition GmbH, Hafenstra\u00dfe 12, 20457 Hamburg\n"
                  "Diese E-Mail ist vertraulich. Wenn Sie nicht der richtige Adressat sind,\n"
                  "informieren Sie bitte sofort den Absender und l\u00f6schen Sie diese Mail.\n")
    root = multipart("mixed", "----=_NextPart_gw_7F3A9C1E2D",
                     text(plain, charset="iso-8859-1", cte="quoted-printable"),
                     text(disclaimer, charset="iso-8859-1", cte="quoted-printable",
                          extra=[("Content-Disposition", "inline")]))
    return message(r.headers(mailer=THUNDERBIRD), root)


@case("gmail-forward-attachments")
def gmail_forward(r: Reply) -> bytes:
    """Gmail's Forward of the turn report, which keeps the judge's own JSON
    and PNG attachments; the orders written above the forwarded message."""
    orders = ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao")
    w = local(r.when, 1)
    fwd = (f"---------- Forwarded message ---------\nFrom: <{r.judged.sender}>\n"
           f"Date: {EN_DAYS[w.weekday()][:3]}, {EN_MONTHS[w.month - 1][:3]} {w.day}, {w.year} "
           f"at {twelve_hour(w)}\nSubject: {r.judged.subject}\nTo: <{r.player.address}>\n\n")
    plain = f"{body(r, *orders)}\n\n{fwd}\n{r.judged.text}"
    html = ('<div dir="ltr">' + "<br>".join((r.player.signon, *orders)) + '<br><br><div class='
            '"gmail_quote"><div dir="ltr" class="gmail_attr">'
            + mime.html_escape(fwd).replace("\n", "<br>") + "</div><br><br>"
            + html_lines(r.judged.text) + "</div></div>\n")
    alt = multipart("alternative", "000000000000b1c2d3e4f5a6b7c8",
                    text(plain, cte="quoted-printable"),
                    text(html, "html", cte="quoted-printable"))
    files = [binary(data, ctype, name,
                    extra=[("X-Attachment-Id", f"f_m{n}x9k2a{n}"), ("Content-ID",
                                                                     f"<f_m{n}x9k2a{n}>")])
             for n, (name, ctype, data) in enumerate(r.judged.attachments)]
    root = multipart("mixed", "000000000000c2d3e4f5a6b7c8d9", alt, *files)
    return message(r.headers(subject=f"Fwd: {r.judged.subject}"), root)


@case("gmail-forward-inline-map")
def gmail_forward_inline(r: Reply) -> bytes:
    """Gmail's Forward of the HTML report: the judge's map, which the
    report showed inline, stays inline in a multipart/related under a
    Content-ID of Gmail's own ("ii_..."); the judge's JSON stays attached.
    The orders written above the forwarded message."""
    orders = ("F Lon - Eng", "F Edi - Nth", "A Lvp - Yor")
    w = local(r.when, 0)
    fwd = (f"---------- Forwarded message ---------\nFrom: <{r.judged.sender}>\n"
           f"Date: {EN_DAYS[w.weekday()][:3]}, {EN_MONTHS[w.month - 1][:3]} {w.day}, {w.year} "
           f"at {twelve_hour(w)}\nSubject: {r.judged.subject}\nTo: <{r.player.address}>\n\n")
    pictures = [a for a in r.judged.attachments if a[1] == "image/png"]
    files = [a for a in r.judged.attachments if a[1] != "image/png"]
    assert pictures and files, r.judged.attachments
    shown = [(f"ii_m9q{n}x7ka{n}", a) for n, a in enumerate(pictures)]
    plain = (f"{body(r, *orders)}\n\n{fwd}\n{r.judged.text}\n"
             + "".join(f"[image: {name}]\n" for _, (name, _, _) in shown))
    html = ('<div dir="ltr">' + "<br>".join((r.player.signon, *orders)) + '<br><br><div class='
            '"gmail_quote"><div dir="ltr" class="gmail_attr">'
            + mime.html_escape(fwd).replace("\n", "<br>") + "</div><br><br>"
            + html_lines(r.judged.text)
            + "".join(f'<div><img src="cid:{cid}" alt="{name}" width="640"><br></div>'
                      for cid, (name, _, _) in shown) + "</div></div>\n")
    alt = multipart("alternative", "000000000000d4e5f6a7b8c9d0e1",
                    text(plain, cte="quoted-printable"),
                    text(html, "html", cte="quoted-printable"))
    related = multipart("related", "000000000000e5f6a7b8c9d0e1f2", alt, *(
        binary(data, ctype, name, disposition="inline", cid=cid,
               extra=[("X-Attachment-Id", cid)]) for cid, (name, ctype, data) in shown))
    attached = [binary(data, ctype, name, extra=[("X-Attachment-Id", f"f_m9q{n}y8lb{n}")])
                for n, (name, ctype, data) in enumerate(files)]
    root = multipart("mixed", "000000000000f6a7b8c9d0e1f2a3", related, *attached)
    return message(r.headers(subject=f"Fwd: {r.judged.subject}"), root)


# --------------------------------------------------------------------------- other languages


def outlook_local(r: Reply, orders: tuple[str, ...], signoff: list[str],
                  labels: tuple[str, str, str, str], sent: str, prefix: str, charset: str,
                  cte: str, lang: str, rule: bool = False, html: bool = True) -> bytes:
    """A localised Outlook reply: bare orders, a sign-off, the header block
    in the client's language (under a rule in newer builds) and the
    original unprefixed."""
    header = header_block(labels, (f"{r.judged.sender} <{r.judged.sender}>", sent,
                                   r.player.mailbox, r.judged.subject))
    plain = (body(r, *orders) + "\n\n" + "\n".join(signoff) + "\n\n"
             + ("________________________________\n" if rule else "")
             + block_text(header) + "\n\n" + r.judged.text)
    subject = f"{prefix} {r.judged.subject}"
    if any(ord(c) > 127 for c in subject):
        subject = word(subject, charset)
    if not html:
        return message(r.headers(subject=subject), text(plain, charset=charset, cte=cte))
    own = [mime.html_escape(x) for x in (r.player.signon, *orders, "", *signoff)]
    root = multipart("alternative", f"_000_{lang.replace('-', '')}PR02MB55667788990AB_",
                     text(plain, charset=charset, cte=cte),
                     text(outlook_html(own, header, r.judged.text, charset, lang), "html",
                          charset=charset, cte=cte))
    return message(r.headers(subject=subject, mailer=[("Content-Language", lang.lower())]),
                   root)


def gmail_local(r: Reply, orders: tuple[str, ...], signoff: list[str], attribution: str,
                charset: str = "utf-8", cte: str = "quoted-printable") -> bytes:
    """A Gmail reply in another language: the same shape, the attribution in
    the writer's language."""
    plain = (body(r, *orders) + "\n\n" + "\n".join(signoff) + f"\n\n{attribution}\n\n"
             + prefixed(r.judged.text) + "\n")
    own = html_body(r, *orders) + "<div><br></div>" + "".join(
        f"<div>{mime.html_escape(x)}</div>" for x in signoff)
    root = multipart("alternative", "00000000000071a2b3c4d5e6f708",
                     text(plain, charset=charset, cte=cte),
                     text(gmail_html(r, own, attribution), "html", charset=charset, cte=cte))
    return message(r.headers(), root)


@case("german-outlook")
def german_outlook(r: Reply) -> bytes:
    w = local(r.when, 1)
    return outlook_local(
        r, ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den"),
        ["Mit freundlichen Gr\u00fc\u00dfen", "Karl Weber"],
        ("Von:", "Gesendet:", "An:", "Betreff:"),
        f"Sonntag, {w.day}. M\u00e4rz {w.year} {w.hour:02d}:{w.minute:02d}", "AW:",
        "iso-8859-1", "quoted-printable", "DE")


@case("german-thunderbird")
def german_thunderbird(r: Reply) -> bytes:
    """Thunderbird in German: "Am 01.03.26 um 15:00 schrieb ...:" over a
    "> " quote of the acknowledgement, format=flowed."""
    orders = ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb")
    w = local(r.when, 1)
    plain = (f"{body(r, *orders)}\n\nServus\nFranz\n\n"
             f"Am {w.day:02d}.{w.month:02d}.{w.year % 100:02d} um {w.hour:02d}:{w.minute:02d} "
             f"schrieb {r.judged.sender}:\n{prefixed(r.judged.text)}\n")
    return message(r.headers(mailer=[("User-Agent", "Mozilla Thunderbird"),
                                     ("Content-Language", "de-AT")]),
                   text(mime.flow(plain), charset="iso-8859-1", cte="8bit",
                        params="; format=flowed"))


@case("french-gmail")
def french_gmail(r: Reply) -> bytes:
    w = local(r.when, 1)
    return gmail_local(r, ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"),
                       ["Bien \u00e0 vous,", "Marie"],
                       f"Le dim. {w.day} mars {w.year} \u00e0 {w.hour:02d}:{w.minute:02d}, "
                       f"<{r.judged.sender}> a \u00e9crit :")


@case("french-outlook")
def french_outlook(r: Reply) -> bytes:
    w = local(r.when, 1)
    return outlook_local(
        r, ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"),
        ["Cordialement,", "Marie Dupont"],
        ("De\u00a0:", "Envoy\u00e9\u00a0:", "\u00c0\u00a0:", "Objet\u00a0:"),
        f"dimanche {w.day} mars {w.year} {w.hour:02d}:{w.minute:02d}", "RE :",
        "windows-1252", "quoted-printable", "FR", rule=False)


@case("spanish-gmail")
def spanish_gmail(r: Reply) -> bytes:
    w = local(r.when, 1)
    return gmail_local(r, ("A Ven - Tyr", "A Rom - Apu", "F Nap - Ion"),
                       ["Saludos,", "Javier"],
                       f"El dom, {w.day} mar {w.year} a las {w.hour:02d}:{w.minute:02d}, "
                       f"<{r.judged.sender}> escribi\u00f3:")


@case("russian-outlook")
def russian_outlook(r: Reply) -> bytes:
    w = local(r.when, 3)
    return outlook_local(
        r, ("A Mos - Ukr", "A War - Gal", "F Sev - Bla", "F StP/sc - Bot"),
        ["С уважением,", "Иван"],
        ("От:", "Отправлено:", "Кому:", "Тема:"),
        f"воскресенье, {w.day} марта {w.year} г. {w.hour}:{w.minute:02d}", "RE:",
        "koi8-r", "quoted-printable", "RU", html=False)


@case("russian-gmail")
def russian_gmail(r: Reply) -> bytes:
    """Gmail in Russian names the writer with no verb: "вс, 1 мар. 2026 г.
    в 15:00, <...>:"; the body in base64."""
    w = local(r.when, 3)
    return gmail_local(r, ("A Mos - Ukr", "A War - Gal", "F Sev - Bla"),
                       ["Спасибо"],
                       f"вс, {w.day} мар. {w.year} г. в {w.hour:02d}:{w.minute:02d}, "
                       f"<{r.judged.sender}>:", cte="base64")


@case("polish-outlook")
def polish_outlook(r: Reply) -> bytes:
    w = local(r.when, 1)
    return outlook_local(
        r, ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb"),
        ["Pozdrawiam,", "Tomasz"],
        ("Od:", "Wysłano:", "Do:", "Temat:"),
        f"niedziela, {w.day} marca {w.year} {w.hour:02d}:{w.minute:02d}", "RE:",
        "iso-8859-2", "quoted-printable", "PL", rule=True)


@case("polish-gmail")
def polish_gmail(r: Reply) -> bytes:
    """Gmail in Polish: "W dniu nd., 1.03.2026 o 13:00 <...> napisał(a):"."""
    w = local(r.when, 1)
    return gmail_local(r, ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb"),
                       ["Dzięki"],
                       f"W dniu nd., {w.day}.{w.month:02d}.{w.year} o {w.hour:02d}:{w.minute:02d} "
                       f"<{r.judged.sender}> napisał(a):")


@case("swedish-outlook")
def swedish_outlook(r: Reply) -> bytes:
    w = local(r.when, 1)
    return outlook_local(
        r, ("F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"),
        ["Hälsningar,", "Erik"],
        ("Från:", "Skickat:", "Till:", "Ämne:"),
        f"den {w.day} mars {w.year} {w.hour:02d}:{w.minute:02d}", "SV:",
        "iso-8859-1", "quoted-printable", "SV", rule=True)


@case("japanese-outlook")
def japanese_outlook(r: Reply) -> bytes:
    """A Japanese Outlook in plain text: ISO-2022-JP (7bit), 差出人/送信日時/
    宛先/件名 over the unprefixed report."""
    w = local(r.when, 9)
    return outlook_local(
        r, ("A Con - Bul", "A Smy - Arm", "F Ank - Bla"),
        ["よろしくお願いします。", "田中"],
        ("差出人:", "送信日時:", "宛先:", "件名:"),
        f"{w.year}年{w.month}月{w.day}日 {w.hour}:{w.minute:02d}", "RE:",
        "iso-2022-jp", "7bit", "JA", html=False)


@case("japanese-gmail")
def japanese_gmail(r: Reply) -> bytes:
    """Gmail in Japanese: "2026年3月1日(日) 22:00 <...>:" with no verb."""
    w = local(r.when, 9)
    return gmail_local(r, ("A Con - Bul", "A Smy - Arm", "F Ank - Bla"),
                       ["田中"],
                       f"{w.year}年{w.month}月{w.day}日(日) {w.hour}:{w.minute:02d} "
                       f"<{r.judged.sender}>:", cte="base64")


@case("outlook-express-rewrapped")
def outlook_express(r: Reply) -> bytes:
    """An older client that re-wraps the quote at 76 columns with "> " on
    every piece, under "----- Original Message -----" with From/To/Sent/
    Subject (windows-1252, quoted-printable)."""
    orders = ("A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao")
    w = local(r.when, 1)
    head = (f"----- Original Message -----\nFrom: <{r.judged.sender}>\nTo: "
            f"\"Marie Dupont\" <{r.player.address}>\nSent: {EN_DAYS[w.weekday()]}, "
            f"{EN_MONTHS[w.month - 1]} {w.day:02d}, {w.year} {twelve_hour(w)}\n"
            f"Subject: {r.judged.subject}\n")
    plain = (f"{body(r, *orders)}\n\nMarie\n\n{prefixed(head)}\n\n"
             f"{rewrapped(r.judged.text, 76)}\n")
    return message(r.headers(mailer=[("X-Mailer", "Microsoft Outlook Express 6.00.2900.5931")]),
                   text(plain, charset="windows-1252", cte="quoted-printable"))


# --------------------------------------------------------------------------- phones, webmails


@case("outlook-exchange-html-only")
def outlook_html_only(r: Reply) -> bytes:
    """Outlook through an Exchange server set to send HTML only to the
    judge's domain (a remote domain's "MIME: HTML"): Word's HTML alone, the
    en dashes as &#8211;, the report under the bordered header block."""
    orders = ("A Vie &#8211; Gal", "A Bud &#8211; Ser", "F Tri &#8211; Alb")
    html = outlook_html([mime.html_escape(r.player.signon), *orders, "",
                         "Best regards,", "Franz Huber"], en_header(r, 1), r.judged.text)
    return message(r.headers(subject=f"RE: {r.judged.subject}"),
                   text(html, "html", charset="us-ascii", cte="quoted-printable"))


@case("outlook-html-hidden-preheader")
def outlook_hidden(r: Reply) -> bytes:
    """Outlook's HTML alone (Exchange), with hidden text that looks like
    orders: a preheader span (``display:none``, the preview line a template
    puts first) and a paragraph Outlook hides (``mso-hide:all``). A reader
    sees neither; the judge reads neither."""
    orders = ("A Ven H", "A Rom - Apu", "F Nap - Ion")
    hidden = ('<span style="display:none !important;visibility:hidden;mso-hide:all;'
              'font-size:1px;color:#ffffff;line-height:1px;max-height:0px;max-width:0px;'
              'opacity:0;overflow:hidden">A Ven - Tri<br>A Rom - Ven<br>F Nap - Tys</span>\n'
              '<div style="mso-hide:all"><p class="MsoNormal">F Nap - Tys<o:p></o:p></p></div>\n')
    html = outlook_html([mime.html_escape(r.player.signon), *orders, "", "Best regards,",
                         "Giulia Romano"], en_header(r, 1), r.judged.text)
    start = '<div class="WordSection1">\n'
    assert start in html
    html = html.replace(start, start + hidden, 1)
    return message(r.headers(subject=f"RE: {r.judged.subject}"),
                   text(html, "html", charset="utf-8", cte="quoted-printable"))


@case("samsung-email")
def samsung(r: Reply) -> bytes:
    """Samsung Email on Android: "Sent from my Galaxy", then
    "-------- Original message --------" with From/Date/To/Subject over the
    unprefixed acknowledgement; base64 text and HTML parts."""
    orders = ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den")
    w = local(r.when, 1)
    head = (f"-------- Original message --------\nFrom: {r.judged.sender}\n"
            f"Date: {w.day:02d}/{w.month:02d}/{w.year} {w.hour:02d}:{w.minute:02d} (GMT+01:00)\n"
            f"To: {r.player.address}\nSubject: {r.judged.subject}\n")
    plain = f"{body(r, *orders)}\n\n\n\nSent from my Galaxy\n\n\n{head}\n{r.judged.text}"
    html = ('<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">'
            "</head><body><div dir=\"auto\">" + "<br>".join((r.player.signon, *orders))
            + '</div><div dir="auto"><br></div><div dir="auto"><br></div><div id="composer_'
            'signature" dir="auto"><div style="font-size:12px;color:#575757" dir="auto">Sent '
            'from my Galaxy</div></div><div dir="auto"><br></div><div><br></div><div align='
            '"left" dir="auto" style="font-size:100%;color:#000000"><div>-------- Original '
            "message --------</div><div>From: " + r.judged.sender + " </div><div>Date: "
            f"{w.day:02d}/{w.month:02d}/{w.year} {w.hour:02d}:{w.minute:02d} (GMT+01:00) </div>"
            f"<div>To: {r.player.address} </div><div>Subject: "
            + mime.html_escape(r.judged.subject) + " </div><div><br></div></div>"
            + html_divs(r.judged.text) + "</body></html>\n")
    root = multipart("alternative", "--_com.samsung.android.email_1772370000000123",
                     text(plain, charset="utf-8", cte="base64"),
                     text(html, "html", charset="utf-8", cte="base64"))
    return message(r.headers(), root)


@case("proton-mail")
def proton(r: Reply) -> bytes:
    """Proton Mail (web): "Sent with Proton Mail secure email.", then
    "------- Original Message -------" and an "On ... wrote:" over a "> "
    quote."""
    orders = ("F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor")
    w = local(r.when, 0)
    attribution = (f"On {EN_DAYS[w.weekday()]}, {EN_MONTHS[w.month - 1]} {w.day}st, {w.year} "
                   f"at {w.hour:02d}:{w.minute:02d}, {r.judged.sender} <{r.judged.sender}> "
                   "wrote:")
    plain = (f"{body(r, *orders)}\n\nJohn\n\nSent with Proton Mail secure email.\n\n"
             f"------- Original Message -------\n{attribution}\n\n\n"
             f"{prefixed(r.judged.text)}\n")
    return message(r.headers(), text(plain, cte="quoted-printable"))


@case("gmx-webmail")
def gmx(r: Reply) -> bytes:
    """GMX / WEB.DE webmail: the original under a block whose first line is
    "Gesendet:" (the date), Von/An/Betreff after it, unprefixed."""
    orders = ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den")
    w = local(r.when, 1)
    plain = (f"{body(r, *orders)}\n\nGru\u00df\nKarl\n\n\u00a0\n\u00a0\n\n"
             f"Gesendet: Sonntag, {w.day:02d}. M\u00e4rz {w.year} um {w.hour:02d}:{w.minute:02d} "
             f"Uhr\nVon: {r.judged.sender}\nAn: {r.player.address}\nBetreff: {r.judged.subject}\n"
             f"{r.judged.text}")
    html = ('<html><head></head><body><div style="font-family: Verdana;font-size: 12.0px;">'
            + "".join(f"<div>{mime.html_escape(x)}</div>" for x in (r.player.signon, *orders))
            + "<div>&nbsp;</div><div>Gru&szlig;</div><div>Karl</div><div>&nbsp;"
            '<div>&nbsp;<div name="quote" style="margin:10px 5px 5px 10px; padding: 10px 0 10px '
            '10px; border-left:2px solid #C3D9E5; word-wrap: break-word; -webkit-nbsp-mode: '
            'space; -webkit-line-break: after-white-space;"><div style="margin:0 0 10px 0;"><b>'
            f"Gesendet:</b>&nbsp;Sonntag, {w.day:02d}. M&auml;rz {w.year} um {w.hour:02d}:"
            f"{w.minute:02d} Uhr<br><b>Von:</b>&nbsp;{r.judged.sender}<br><b>An:</b>&nbsp;"
            f"{r.player.address}<br><b>Betreff:</b>&nbsp;{mime.html_escape(r.judged.subject)}"
            '</div><div name="quoted-content">' + html_lines(r.judged.text)
            + "</div></div></div></div></div></body></html>\n")
    root = multipart("alternative", "abmob-4c1f2e3d-5a6b-7c8d-9e0f-a1b2c3d4e5f6",
                     text(plain, charset="utf-8", cte="quoted-printable"),
                     text(html, "html", charset="utf-8", cte="quoted-printable"))
    return message(r.headers(subject=f"Aw: {r.judged.subject}"), root)


@case("outlook-inline-in-quote")
def outlook_inline(r: Reply) -> bytes:
    """Outlook, the player typing into the original (which Outlook does not
    prefix): nothing above the header block, the orders below the report's
    "Order each of your units" line, the rest of the report after them."""
    orders = ("A Ven - Tyr", "A Rom - Apu", "F Nap - Ion")
    lines = r.judged.lines
    cut = next(i for i, line in enumerate(lines) if line.startswith("Order each")) + 1
    plain = ("\n" + block_text(en_header(r, 1)) + "\n\n" + "\n".join(lines[:cut]) + "\n\n"
             + body(r, *orders) + "\n\n" + "\n".join(lines[cut:]) + "\n")
    below = [*(mime.html_escape(x) for x in lines[:cut]), "",
             *(f'<b><span style="color:#C00000">{mime.html_escape(x)}</span></b>'
               for x in (r.player.signon, *orders)), "",
             *(mime.html_escape(x) for x in lines[cut:])]
    html = outlook_html([""], en_header(r, 1), "", below=below)
    root = multipart("alternative", "_000_PA4PR08MB7001C0FFEE1234PA4PR08MB7001eurp_",
                     text(plain, cte="quoted-printable"),
                     text(html, "html", cte="quoted-printable"))
    return message(r.headers(subject=f"RE: {r.judged.subject}"), root)


@case("foxmail-chinese")
def foxmail(r: Reply) -> bytes:
    """Foxmail / QQ Mail: GBK in base64, the reply prefix 回复, a
    "------------------ 原始邮件 ------------------" line over
    发件人/发送时间/收件人/主题 (each address ending in ";") and the unprefixed
    acknowledgement."""
    orders = ("A Mos - Ukr", "A War - Gal", "F Sev - Bla", "F StP/sc - Bot")
    w = local(r.when, 8)
    plain = (f"{body(r, *orders)}\n\n谢谢！\n\n\n"
             "------------------ 原始邮件 ------------------\n"
             f"发件人: \"{r.judged.sender}\"<{r.judged.sender}>;\n"
             f"发送时间: {w.year}年{w.month}月{w.day}日(星期天) 晚上{w.hour - 12}:{w.minute:02d}\n"
             f"收件人: \"李娜\"<{r.player.address}>;\n主题: {r.judged.subject}\n\n\n\n"
             + r.judged.text)
    html = ("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=GBK\">"
            + "".join(f"<div>{mime.html_escape(x)}</div>" for x in (r.player.signon, *orders))
            + "<div>谢谢！</div><div><br></div><div style=\"font-size: 12px;font-family: Arial "
            "Narrow;padding:2px 0 2px 0;\">------------------&nbsp;原始邮件&nbsp;"
            "------------------</div><div style=\"font-size: 12px;background:#efefef;padding:"
            f"8px;\"><div><b>发件人:</b>&nbsp;\"{r.judged.sender}\"&lt;{r.judged.sender}&gt;;"
            f"</div><div><b>发送时间:</b>&nbsp;{w.year}年{w.month}月{w.day}日(星期天) 晚上"
            f"{w.hour - 12}:{w.minute:02d}</div><div><b>收件人:</b>&nbsp;\"李娜\"&lt;"
            f"{r.player.address}&gt;;</div><div><b>主题:</b>&nbsp;"
            f"{mime.html_escape(r.judged.subject)}</div></div><div><br></div>"
            + html_lines(r.judged.text) + "\n")
    root = multipart("alternative", "----=_NextPart_67E3A1B2_0A1B2C3D_4E5F6A7B",
                     text(plain, charset="gbk", cte="base64"),
                     text(html, "html", charset="gbk", cte="base64"))
    return message(r.headers(subject=word(f"回复: {r.judged.subject}", "gbk"),
                             sender=f"{word('李娜', 'gbk')} <{r.player.address}>",
                             mailer=[("X-Mailer", "Foxmail 7.2.25.375[cn]")]), root)


@case("iphone-autocorrect")
def iphone_autocorrect(r: Reply) -> bytes:
    """iPhone Mail, where autocorrect made the last order's "Arm" into
    "Army": a malformed order after the good ones, then "Sent from my
    iPhone" and the quoted report."""
    orders = ("A Con - Bul", "F Ank - Bla", "A Smy - Army")
    w = local(r.when, 3)
    attribution = (f"On {w.day} {EN_MONTHS[w.month - 1][:3]} {w.year}, at "
                   f"{w.hour:02d}:{w.minute:02d}, {r.judged.sender} wrote:")
    plain = (f"{body(r, *orders)}\n\nSent from my iPhone\n\n{attribution}\n\n"
             f"{prefixed(r.judged.text)}\n")
    return message(r.headers(mailer=[("X-Mailer", "iPhone Mail (22D72)")]),
                   text(plain, charset="us-ascii", cte="7bit"), mime_version="1.0 (1.0)")


@case("german-gmail")
def german_gmail(r: Reply) -> bytes:
    """Gmail in German: "Am So., 1. März 2026 um 13:00 Uhr schrieb <...>:"."""
    w = local(r.when, 1)
    return gmail_local(r, ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den"), ["Viele Grüße", "Karl"],
                       f"Am So., {w.day}. März {w.year} um {w.hour:02d}:{w.minute:02d} Uhr "
                       f"schrieb <{r.judged.sender}>:")


@case("portuguese-gmail")
def portuguese_gmail(r: Reply) -> bytes:
    """Gmail in Portuguese: "Em dom., 1 de mar. de 2026 às 13:00, <...> escreveu:"."""
    w = local(r.when, -3)
    return gmail_local(r, ("A Ven - Tyr", "A Rom - Apu", "F Nap - Ion"), ["Abraço,", "João"],
                       f"Em dom., {w.day} de mar. de {w.year} às {w.hour:02d}:{w.minute:02d}, "
                       f"<{r.judged.sender}> escreveu:")


@case("dutch-outlook")
def dutch_outlook(r: Reply) -> bytes:
    w = local(r.when, 1)
    return outlook_local(
        r, ("F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"), ["Met vriendelijke groet,", "Pieter"],
        ("Van:", "Verzonden:", "Aan:", "Onderwerp:"),
        f"zondag {w.day} maart {w.year} {w.hour:02d}:{w.minute:02d}", "RE:",
        "iso-8859-1", "quoted-printable", "NL", rule=True)


@case("italian-outlook")
def italian_outlook(r: Reply) -> bytes:
    w = local(r.when, 1)
    return outlook_local(
        r, ("A Ven - Tyr", "A Rom - Apu", "F Nap - Ion"), ["Cordiali saluti,", "Luca"],
        ("Da:", "Inviato:", "A:", "Oggetto:"),
        f"domenica {w.day} marzo {w.year} {w.hour:02d}:{w.minute:02d}", "R:",
        "windows-1252", "quoted-printable", "IT", rule=True)


@case("danish-outlook")
def danish_outlook(r: Reply) -> bytes:
    w = local(r.when, 1)
    return outlook_local(
        r, ("A Ber - Kie", "A Mun - Ruh", "F Kie - Den"), ["Med venlig hilsen", "Søren"],
        ("Fra:", "Sendt:", "Til:", "Emne:"),
        f"1. marts {w.year} {w.hour:02d}:{w.minute:02d}", "SV:",
        "iso-8859-1", "quoted-printable", "DA", rule=True)


@case("korean-outlook")
def korean_outlook(r: Reply) -> bytes:
    """A Korean Outlook: the charset label ks_c_5601-1987 (really CP949), in
    base64; 보낸 사람/보낸 날짜/받는 사람/제목 over the unprefixed report."""
    w = local(r.when, 9)
    return outlook_local(
        r, ("A Con - Bul", "A Smy - Arm", "F Ank - Bla"), ["감사합니다.", "김민준"],
        ("보낸 사람:", "보낸 날짜:", "받는 사람:", "제목:"),
        f"{w.year}년 {w.month}월 {w.day}일 일요일 오후 {w.hour - 12}:{w.minute:02d}", "RE:",
        "ks_c_5601-1987", "base64", "KO", rule=True)


@case("turkish-outlook")
def turkish_outlook(r: Reply) -> bytes:
    w = local(r.when, 3)
    return outlook_local(
        r, ("A Con - Bul", "A Smy - Arm", "F Ank - Bla"), ["Saygılarımla,", "Ayşe"],
        ("Kimden:", "Gönderildi:", "Kime:", "Konu:"),
        f"1 Mart {w.year} Pazar {w.hour:02d}:{w.minute:02d}", "YNT:",
        "windows-1254", "quoted-printable", "TR", rule=True)


@case("gmail-pasted-held-orders")
def gmail_pasted(r: Reply) -> bytes:
    """Gmail: the player copies the orders the acknowledgement says are held
    (with their indentation), changes one, and sends them above the quoted
    acknowledgement: the pasted lines are orders, the quoted ones are not."""
    lines = r.judged.lines
    start = next(i for i, line in enumerate(lines) if line.startswith("Orders held for")) + 1
    held = [line for line in lines[start:] if line.startswith("  ")][:3]
    pasted = [line.replace("A Mar - Pie", "A Mar - Bur") for line in held]
    attribution = gmail_attr(r, 1)
    plain = (f"{r.player.signon}\n" + "\n".join(pasted) + f"\n\n{attribution}\n\n"
             + prefixed(r.judged.text) + "\n")
    html = gmail_html(r, html_body(r, *(p.strip() for p in pasted)), attribution)
    root = multipart("alternative", "000000000000d3e4f5a6b7c8d9e0",
                     text(plain, cte="quoted-printable"),
                     text(html, "html", cte="quoted-printable"))
    return message(r.headers(), root)


@case("outlook-plain-wrapped")
def outlook_plain_wrapped(r: Reply) -> bytes:
    """Outlook in plain-text mode wraps every line at 76 columns when it
    sends, the unprefixed original included ("Turkey." goes on a line of its
    own); the header block in Outlook 2010's form."""
    orders = ("A Con - Bul", "A Smy - Arm", "F Ank - Bla")
    header = en_header(r, 3)
    header[0] = ("From:", f"{r.judged.sender} [mailto:{r.judged.sender}]")
    original = block_text(header) + "\n\n" + r.judged.text
    wrapped = []
    for line in f"{body(r, *orders)}\n\nRegards,\nMehmet\n\n{original}".split("\n"):
        while len(line) > 76:
            cut = line.rfind(" ", 0, 77)
            wrapped.append(line[:cut])
            line = line[cut + 1:]
        wrapped.append(line)
    return message(r.headers(subject=f"RE: {r.judged.subject}"),
                   text("\n".join(wrapped), charset="us-ascii", cte="7bit"))


@case("outlook-mac")
def outlook_mac(r: Reply) -> bytes:
    """Outlook for Mac: a From/Date/To/Subject block ("Date:", not "Sent:",
    with "at" in the date) over the unprefixed acknowledgement."""
    orders = ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb")
    w = local(r.when, 1)
    header = header_block(("From:", "Date:", "To:", "Subject:"),
                          (f"{r.judged.sender} <{r.judged.sender}>",
                           f"{EN_DAYS[w.weekday()]}, {w.day} {EN_MONTHS[w.month - 1]} {w.year} "
                           f"at {w.hour:02d}:{w.minute:02d}", r.player.mailbox, r.judged.subject))
    plain = (f"{body(r, *orders)}\n\nCheers,\nFranz\n\n" + block_text(header) + "\n\n"
             + r.judged.text)
    html = outlook_html([mime.html_escape(x) for x in (r.player.signon, *orders, "", "Cheers,",
                                                      "Franz")], header, r.judged.text)
    root = multipart("alternative", "B_3855300000_1234567890",
                     text(plain, cte="quoted-printable"),
                     text(html, "html", cte="quoted-printable"))
    return message(r.headers(mailer=[("User-Agent", "Microsoft-MacOutlook/16.93.25011212"),
                                     ("Thread-Topic", r.judged.subject)]), root)


@case("lotus-notes")
def lotus_notes(r: Reply) -> bytes:
    """HCL (Lotus) Notes: a "-----... wrote: -----" line, then To/From/Date/
    Subject (To first) over the unprefixed report."""
    orders = ("F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor")
    w = local(r.when, 0)
    plain = (f"{body(r, *orders)}\n\nRegards\nJohn Smith\n\n"
             f"-----\"{r.judged.sender}\" <{r.judged.sender}> wrote: -----\n"
             f"To: John Smith/UK/HoldFast@HoldFast\n"
             f"From: \"{r.judged.sender}\" <{r.judged.sender}>\n"
             f"Date: {w.day:02d}/{w.month:02d}/{w.year} {w.hour:02d}:{w.minute:02d}\n"
             f"Subject: {r.judged.subject}\n\n{r.judged.text}")
    return message(r.headers(mailer=[("X-Mailer", "HCL Notes Release 12.0.2 November 03, 2022"),
                                     ("X-MIMETrack", "Serialize by Router on HFMAIL01/HoldFast"
                                      " at 01/03/2026 13:00:00")]),
                   text(plain, charset="us-ascii", cte="7bit"))
