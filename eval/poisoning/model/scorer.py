"""Features and scoring of the learned poisoning scorer (standard library only).

This module is the specification a Rust port follows: every step is
deterministic and uses only operations with an obvious Rust equivalent
(NFKC + casefold, regexes over the normalized text, CRC-32 of UTF-8 bytes,
integer sums of int16 weights).

Pipeline for one tool:
  1. walk the tool's model-visible strings, each with its field kind
     (`strings_of_tool`);
  2. for each string, the original and at most one decoded variant of each
     kind (`variants`: unicode tags, base64, hex, URL, HTML entities, spaced
     letters, leet, ROT13, reversed), each on at most MAX_CHARS characters;
  3. normalize (`normalize`) and cut into segments (sentences / lines);
  4. each segment gets hashed features (`segment_features`): word unigrams and
     bigrams, character 3-5-grams, structural markers, field kind;
  5. a segment's contribution is the sum of its features' weights (counts, not
     presence, so that the score of a span of segments is the sum of their
     contributions); a string's score is bias + the best span of one or two
     consecutive segments, so a payload appended to a long benign description is
     not diluted by it;
  6. the tool's score is the max over its strings and their variants; a
     "sum" mode adds the positive spans of all strings of the tool (a payload
     split across fields) and of the two best tools of a catalog (split across
     tools).
"""

import base64
import binascii
import codecs
import html
import re
import unicodedata
import urllib.parse
import zlib

MAX_CHARS = 4096        # a string is scored on its first MAX_CHARS characters
MAX_SEGMENTS = 64       # and on at most this many segments per variant

# ---------------------------------------------------------------------------
# walking a tool

SKIP_SCHEMA_KEYS = {"type", "$ref", "$schema", "$id", "required", "additionalProperties", "$comment"}


def strings_of_tool(tool):
    """[(field, text)] in a fixed order (JSON object order of the input)."""
    out = []
    if not isinstance(tool, dict):
        return out
    for key in ("name", "title", "description"):
        v = tool.get(key)
        if isinstance(v, str):
            out.append(("tool." + key, v))
    ann = tool.get("annotations")
    if isinstance(ann, dict) and isinstance(ann.get("title"), str):
        out.append(("annotations.title", ann["title"]))
    if isinstance(tool.get("inputSchema"), dict):
        _walk_schema(tool["inputSchema"], "in", out)
    if isinstance(tool.get("outputSchema"), dict):
        _walk_schema(tool["outputSchema"], "out", out)
    return out


def _strings_in(value, field, out):
    if isinstance(value, str):
        out.append((field, value))
    elif isinstance(value, list):
        for v in value:
            _strings_in(v, field, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.append((field + ".key", k))
            _strings_in(v, field, out)


def _walk_schema(schema, side, out, depth=0):
    if not isinstance(schema, dict) or depth > 32:
        return
    pre = "out." if side == "out" else ""
    for k, v in schema.items():
        if k in ("description", "title"):
            if isinstance(v, str):
                out.append((pre + "schema." + k, v))
        elif k in ("enum", "default", "examples", "const", "format", "pattern"):
            _strings_in(v, pre + k, out)
        elif k in ("properties", "patternProperties", "$defs", "definitions"):
            if isinstance(v, dict):
                kind = "prop.name" if k in ("properties", "patternProperties") else "defs.key"
                for name, sub in v.items():
                    out.append((pre + kind, name))
                    _walk_schema(sub, side, out, depth + 1)
        elif k in ("items", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames"):
            if isinstance(v, dict):
                _walk_schema(v, side, out, depth + 1)
            elif isinstance(v, list):
                for s in v:
                    _walk_schema(s, side, out, depth + 1)
        elif k in ("anyOf", "oneOf", "allOf", "prefixItems"):
            if isinstance(v, list):
                for s in v:
                    _walk_schema(s, side, out, depth + 1)
        elif k in SKIP_SCHEMA_KEYS:
            continue


# ---------------------------------------------------------------------------
# decoded variants (each kind at most once, never recursively)

B64_RUN = re.compile(r"[A-Za-z0-9+/]{24,}={0,2}")
HEX_RUN = re.compile(r"(?:[0-9a-fA-F]{2}){12,}")
PCT = re.compile(r"%[0-9A-Fa-f]{2}")
ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z]{2,8});")
SPACED = re.compile(r"(?:\b\w\b ){6,}\b\w\b")
LEET_TOKEN = re.compile(r"\b(?=\w*[A-Za-z])(?=\w*[013457])\w+\b")
LEET_MAP = str.maketrans({"4": "a", "3": "e", "1": "i", "0": "o", "5": "s", "7": "t"})


def _printable(s):
    if not s:
        return False
    good = sum(1 for ch in s if ch.isprintable() or ch in "\n\t")
    return good / len(s) > 0.95 and sum(ch.isalpha() for ch in s) >= len(s) * 0.4


def _sub_decoded(text, run, decode):
    changed = False

    def rep(m):
        nonlocal changed
        d = decode(m.group(0))
        if d is not None and _printable(d):
            changed = True
            return " " + d + " "
        return m.group(0)

    out = run.sub(rep, text)
    return out if changed else None


def _b64(s):
    try:
        return base64.b64decode(s + "=" * (-len(s) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def _hex(s):
    try:
        return bytes.fromhex(s).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def variants(text, decode=True):
    """[(kind, text)]: the original first, then the decoded variants that apply."""
    text = text[:MAX_CHARS]
    out = [("orig", text)]
    if not decode:
        return out
    if any(0xE0020 <= ord(ch) <= 0xE007E for ch in text):
        out.append(("tags", "".join(chr(ord(ch) - 0xE0000) if 0xE0020 <= ord(ch) <= 0xE007E else ch for ch in text)))
    v = _sub_decoded(text, B64_RUN, _b64)
    if v is not None:
        out.append(("base64", v))
    v = _sub_decoded(text, HEX_RUN, _hex)
    if v is not None:
        out.append(("hex", v))
    if len(PCT.findall(text)) >= 4:
        out.append(("url", urllib.parse.unquote(text)))
    if len(ENTITY.findall(text)) >= 4:
        out.append(("entities", html.unescape(text)))
    if SPACED.search(text):
        # "i g n o r e  a l l": single spaces join letters, double spaces part words
        out.append(("spaced", re.sub(r"(?<=\S) (?=\S)", "", text)))
    if len(LEET_TOKEN.findall(text, 0, 2000)) >= 2:
        out.append(("leet", LEET_TOKEN.sub(lambda m: m.group(0).translate(LEET_MAP), text)))
    if sum(ch.isascii() and ch.isalpha() for ch in text) >= 12:
        out.append(("rot13", codecs.encode(text, "rot13")))
    if len(text) >= 12:
        out.append(("reversed", text[::-1]))
    return out


# ---------------------------------------------------------------------------
# normalization and segments

def _invisible(ch):
    return unicodedata.category(ch) in ("Cf", "Cc", "Co", "Cn") and ch not in "\n\t"


BACKSLASH_ESC = re.compile(r"\\(?=[^A-Za-z0-9])")
SEG_SPLIT = re.compile(r"\n+|(?<=[.!?;])\s+|(?<=[。！？；])")
WS = re.compile(r"[ \t\r\f\v_]+")


def normalize(text):
    t = unicodedata.normalize("NFKC", text).casefold()
    t = "".join(ch for ch in t if not _invisible(ch))
    t = BACKSLASH_ESC.sub("", t)  # regex literals: "ignore\ all" -> "ignore all"
    return t


def segments(text):
    out = []
    for s in SEG_SPLIT.split(normalize(text)):
        s = WS.sub(" ", s).strip()
        if s:
            out.append(s)
        if len(out) >= MAX_SEGMENTS:
            break
    return out


# ---------------------------------------------------------------------------
# structural markers (languages of the development part only: en es fr de it pl
# zh ja ar tr; the held-back languages pt ru ko hi get none, on purpose)

MARKERS = {
    # obligation / imperative mood
    "oblig": r"\b(?:must|shall|should|need to|needs to|has to|have to|required?|mandatory|always|never|make sure|ensure|be sure to|do not|don't|under no circumstances|it is essential|is to be|are to be|debe[ns]?|debes|siempre|nunca|obligatori[oa]|asegúrate|aseg[uú]rese|hay que|tienes que|doi[tv]|devez|toujours|jamais|obligatoire|assurez|veillez|il faut|muss|müssen|musst|immer|niemals|stets|erforderlich|stelle sicher|unbedingt|dev[eio]|devono|sempre|mai|obbligatori[oa]|assicurati|bisogna|musi|musisz|należy|zawsze|nigdy|wymagane|koniecznie|upewnij)\b|必须|务必|一定要|始终|总是|永远|不得|必ず|常に|しなければ|ください|يجب|دائم|أبدا|لا ت|zorunlu|mutlaka|her zaman|asla|gerek",
    # the text addresses the model / assistant
    "you_model": r"\b(?:you|your|yourself|assistant|ai|model|llm|agent|chatbot|claude|gpt|copilot|tú|tu|usted|asistente|modelo|vous|votre|ton|ta|assistant|modèle|du|dein|deine|ihr|assistent|modell|ki|assistente|voi|ty|twój|twoja|asystent|model|sen|senin|asistan)\b|助手|模型|你|您|アシスタント|モデル|あなた|المساعد|النموذج|أنت",
    # the user, as a third party
    "user": r"\b(?:user|user's|users|end user|human|usuario|utilisateur|benutzer|nutzer|utente|użytkownik\w*|kullanıcı\w*)\b|用户|ユーザー|المستخدم",
    # other tools / servers / functions
    "tool_ref": r"\b(?:tool|tools|function|server|servers|mcp|plugin|herramienta\w*|outil\w*|werkzeug\w*|strumento|strumenti|narzędzi\w*|araç\w*)\b|工具|ツール|أداة|الأدوات",
    "ident": r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b",
    # before / first / every turn
    "order": r"\b(?:before|first|every (?:turn|call|request|time|conversation|response)|each (?:turn|call|request|time)|at the start|prior to|antes|primero|cada|avant|d'abord|chaque|vor|zuerst|jede[nrms]?|prima|ogni|przed|najpierw|każd\w+|önce|her)\b|之前|首先|每次|先に|毎回|قبل|كل",
    # secrecy toward the user
    "secrecy": r"\b(?:secret(?:ly)?|hidden|hide|silent(?:ly)?|quiet(?:ly)?|without (?:telling|mentioning|informing|asking|notifying)|don't (?:tell|mention|reveal|show)|do not (?:tell|mention|reveal|show|disclose)|confidential|not (?:mention|reveal|disclose)|conceal|pretend|en secreto|sin (?:decir|avisar|mencionar)|no (?:menciones|digas|le digas)|ocult\w+|secrètement|sans (?:le dire|mentionner|prévenir)|ne (?:dites|mentionnez|dis)|cach\w+|heimlich|verschweig\w*|nicht (?:erwähnen|sagen|zeigen)|erwähne|segret\w*|senza (?:dire|menzionare)|non (?:menzionare|dire)|nascost\w*|potajemnie|nie (?:mów|wspominaj)|ukryt\w*|gizli\w*|söyleme|bahsetme)\b|不要告诉|不要提及|秘密|隐藏|悄悄|伝えず|触れない|内緒|秘密|لا تخبر|سر",
    # authority / role markup
    "authority": r"\b(?:system|admin\w*|administrator|developer|operator|override|priority|privilege\w*|root|sistema|administrador|système|administrateur|développeur|systemnachricht|betreiber|entwickler|amministratore|sviluppatore|systemow\w*|operator\w*|sistem|yönetici)\b|<\|[a-z_]+\|>|\[[a-z _:-]+\]|系统|管理员|开发者|システム|管理者|النظام|المشغل",
    "ignore": r"\b(?:ignore|disregard|forget|previous instructions|prior instructions|supersede\w*|instead|ignora\w*|olvida|ignorez|oublie\w*|ignoriere\w*|vergiss|dimentica|zignoruj|yok say)\b|忽略|無視|تجاهل",
    "path": r"(?:~/|/etc/|/home/|\.ssh|\.aws|\.env\b|\.kube|\.docker|\.npmrc|\.netrc|\.pypirc|\.git-credentials|\.config/|keychain|_history\b|\.gnupg|id_rsa|id_ed25519|credentials)",
    "envvar": r"\b[a-z][a-z0-9]*_(?:[a-z0-9]+_)*(?:key|token|secret|password|credentials|url)\b",
    "url": r"https?://|\bwww\.|\b\d{1,3}(?:\.\d{1,3}){3}\b",
    "email": r"\b[\w.+-]+@[\w-]+\.[\w.]+\b",
    "secret_word": r"\b(?:api key|token|password|credential\w*|private key|secret key|contraseña|clave|mot de passe|passwort|schlüssel|password|hasło|klucz|şifre|anahtar)\b|密码|密钥|令牌|パスワード|トークン|كلمة المرور",
    "send": r"\b(?:send|post|upload|forward|include|attach|copy|append|exfiltrat\w*|bcc|cc|envía|envia\w*|envoie\w*|schick\w*|sende\w*|invia\w*|wyślij|gönder\w*)\b|发送|送信|أرسل",
    "markup": r"<[a-z/!][^>]{0,40}>|^#{1,6} |^\s*[-*] \[|!\[[^\]]*\]\(",
}
MARKER_RE = {k: re.compile(v) for k, v in MARKERS.items()}

WORD = re.compile(r"\w+")


def field_group(field):
    """Fields with the same role share a structural feature."""
    f = field[4:] if field.startswith("out.") else field
    if f.endswith(".key"):
        f = f[:-4]
    return ("out." if field.startswith("out.") else "") + f


def length_bucket(n):
    for i, b in enumerate((8, 24, 64, 160, 400)):
        if n < b:
            return i
    return 5


def segment_features(seg, field, vkind, cfg):
    """Feature strings of one normalized segment (order irrelevant, counts kept)."""
    feats = []
    words = WORD.findall(seg)
    if cfg.get("words", True):
        feats += ["w:" + w for w in words]
        feats += ["b:" + a + " " + b for a, b in zip(words, words[1:])]
    if cfg.get("chars", True):
        s = " " + seg + " "
        for n in (3, 4, 5):
            feats += ["c:" + s[i:i + n] for i in range(len(s) - n + 1)]
    if cfg.get("struct", True):
        fg = field_group(field)
        lb = length_bucket(len(seg))
        feats.append("f:" + fg)
        feats.append("fl:%s|%d" % (fg, lb))
        hits = [k for k, r in MARKER_RE.items() if r.search(seg)]
        for k in hits:
            feats.append("m:" + k)
            feats.append("mf:%s|%s" % (k, fg))
        for i, a in enumerate(hits):
            for b in hits[i + 1:]:
                feats.append("mm:%s|%s" % (a, b))
        feats.append("nm:%d" % min(len(hits), 6))
        if vkind != "orig":
            feats.append("v:" + vkind)
    return feats


def bucket(feat, bits):
    return zlib.crc32(feat.encode("utf-8")) & ((1 << bits) - 1)


def string_units(field, text, cfg):
    """[(vkind, [segment feature-bucket lists])] for one string."""
    out = []
    for vkind, vt in variants(text, cfg.get("decode", True)):
        segs = segments(vt)
        out.append((vkind, [segment_features(s, field, vkind, cfg) for s in segs], segs))
    return out


WINDOW = 2  # segments per scored span: the training rows are spans of 1 or 2


def best_span(contribs):
    """Best sum over spans of 1..WINDOW consecutive segments.

    Bounded like the training rows: an unbounded best run (Kadane) let long
    benign documentation add up many mildly positive sentences (an out-of-fold
    real server reached logit 52 on the development part)."""
    best = None
    for i in range(len(contribs)):
        acc = 0
        for j in range(i, min(i + WINDOW, len(contribs))):
            acc += contribs[j]
            if best is None or acc > best:
                best = acc
    return 0 if best is None else best
